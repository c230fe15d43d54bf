import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../test/server-process';
import { LOCAL_POSTGRES_URL } from '../test/test-database';

/**
 * The one-machine deployment of docs/deployment.md, started from the committed files in deploy/:
 * Mosquitto, nginx and two server instances (the production bundle, as the systemd unit runs it)
 * on a fresh PostgreSQL database. Only what cannot be the same here is substituted, each value
 * exactly where the committed file has it (ports, certificate and data paths, passwords): a
 * substitution that no longer finds its text fails, so the files tested are the files shipped.
 */

const run = promisify(execFile);
export const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const deployDir = path.join(repoRoot, 'deploy');
/** The PostgreSQL server the suite uses (TEST_DATABASE_URL, else the local one): a database is made and dropped on it. */
const postgresServer = new URL(process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES_URL);
const POSTGRES_SERVER = {
  host: postgresServer.hostname,
  port: postgresServer.port || '5432',
  user: decodeURIComponent(postgresServer.username) || 'postgres',
  password: decodeURIComponent(postgresServer.password),
};

/** Replaces each `from` in the committed `file`; every one must be found, `count` times (1 by default). */
export function render(file: string, replacements: [from: string, to: string, count?: number][]): string {
  let text = readFileSync(path.join(deployDir, file), 'utf8');
  for (const [from, to, count = 1] of replacements) {
    const found = text.split(from).length - 1;
    if (found !== count)
      throw new Error(`deploy/${file}: expected ${count} x ${JSON.stringify(from)}, found ${found}`);
    text = text.replaceAll(from, to);
  }
  return text;
}

/** `KEY=value` lines of an env file (systemd's EnvironmentFile and Compose's env_file read the same). */
export function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1');
  }
  return env;
}

/** The systemd unit's settings: `Environment=`, `EnvironmentFile=` and `ExecStart=` lines. */
export function readUnit() {
  const text = readFileSync(path.join(deployDir, 'systemd/coldchain@.service'), 'utf8');
  const values = (key: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${key}=`))
      .map((line) => line.slice(key.length + 1).trim());
  return {
    text,
    environment: Object.fromEntries(
      values('Environment').map((pair) => pair.split('=', 2) as [string, string]),
    ),
    environmentFiles: values('EnvironmentFile'),
    execStart: values('ExecStart')[0]!.split(/\s+/),
    workingDirectory: values('WorkingDirectory')[0]!,
    timeoutStopSec: Number(values('TimeoutStopSec')[0]),
  };
}

async function canListen(host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, host, () => probe.close(() => resolve(true)));
  });
}

export async function waitForPort(port: number, what: string, output: () => string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not open port ${port}:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP(S) request, from `localAddress` when given: the test's "client on the internet" is
 * 127.0.0.2, so the address the server records can only have come from nginx's X-Forwarded-For.
 */
export function fetchRaw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<Answer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.localAddress,
        // The test's self-signed certificate; nothing else is trusted differently.
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('latin1'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

interface Child {
  child: ChildProcess;
  output: () => string;
}

function startChild(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv },
): Child {
  let output = '';
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  child.on('error', (error) => (output += `\n${command}: ${error.message}`));
  return { child, output: () => output.slice(-8000) };
}

/** SIGTERM, and SIGKILL when it has not exited after `graceMs`; resolves with the exit and how long it took. */
export async function stopChild(child: ChildProcess, graceMs = 15_000) {
  const started = Date.now();
  if (child.exitCode !== null || child.signalCode !== null)
    return { code: child.exitCode, signal: child.signalCode, ms: 0 };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const result = await exited;
  clearTimeout(timer);
  return { ...result, ms: Date.now() - started };
}

export interface Instance extends Child {
  name: string;
  port: number;
  baseUrl: string;
}

export interface DeployStack {
  dir: string;
  databaseName: string;
  databaseUrl: string;
  httpPort: number;
  httpsPort: number;
  mqttTlsPort: number;
  certFile: string;
  metricsToken: string;
  instances: Instance[];
  mosquitto: Child;
  nginx: Child;
  /** Adds a device's credentials to Mosquitto's password file and makes it reload (docs/deployment.md). */
  addMqttDevice(serial: string, key: string): Promise<void>;
  nginxErrors(): string;
  stop(): Promise<void>;
}

const psqlArgs = ['-h', POSTGRES_SERVER.host, '-p', POSTGRES_SERVER.port, '-U', POSTGRES_SERVER.user, '-w'];
/** createdb and dropdb take the password from the environment, never from the command line. */
const psqlEnv = {
  ...process.env,
  ...(POSTGRES_SERVER.password ? { PGPASSWORD: POSTGRES_SERVER.password } : {}),
};

export async function startDeployStack(): Promise<DeployStack> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cc-deploy-'));
  // nginx's workers and Mosquitto may run as another user than the test: they read from here.
  chmodSync(dir, 0o755);
  const children: Child[] = [];
  const databaseName = `cc_deploy_${Date.now()}_${randomBytes(3).toString('hex')}`;
  let databaseMade = false;

  const stop = async () => {
    await Promise.all(children.map((c) => stopChild(c.child)));
    if (databaseMade)
      await run('dropdb', [...psqlArgs, '--if-exists', '--force', databaseName], { env: psqlEnv }).catch(
        () => undefined,
      );
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const { httpPort, httpsPort, portA, portB, mqttLocalPort, mqttTlsPort } = await uniquePorts([
      'httpPort',
      'httpsPort',
      'portA',
      'portB',
      'mqttLocalPort',
      'mqttTlsPort',
    ] as const);
    const ipv6 = await canListen('::1');
    const serverPassword = randomBytes(12).toString('hex');
    const metricsToken = randomBytes(16).toString('hex');

    // The production bundle, as the release is built (docs/deployment.md "Install"); with
    // DATABASE_URL set no embedded database template is needed.
    const database = new URL(postgresServer);
    database.pathname = `/${databaseName}`;
    const databaseUrl = database.toString();
    await Promise.all([
      run(process.execPath, ['scripts/build-server-if-stale.mjs'], {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: databaseUrl },
      }),
      run('createdb', [...psqlArgs, databaseName], { env: psqlEnv }).then(() => {
        databaseMade = true;
      }),
      // One self-signed certificate for nginx's HTTPS and Mosquitto's TLS listener.
      run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        path.join(dir, 'privkey.pem'),
        '-out',
        path.join(dir, 'fullchain.pem'),
      ]),
    ]);
    const certFile = path.join(dir, 'fullchain.pem');
    const keyFile = path.join(dir, 'privkey.pem');
    chmodSync(keyFile, 0o644);

    // --- Mosquitto: Debian's main file (persistence, log, conf.d), our drop-in and ACL -------
    const passwordFile = path.join(dir, 'mosquitto.passwd');
    await run('mosquitto_passwd', ['-c', '-b', passwordFile, 'coldchain-server', serverPassword]);
    writeFileSync(
      path.join(dir, 'mosquitto.acl'),
      readFileSync(path.join(deployDir, 'mosquitto/coldchain.acl')),
    );
    mkdirSync(path.join(dir, 'mosquitto.d'));
    writeFileSync(
      path.join(dir, 'mosquitto.d/coldchain.conf'),
      render('mosquitto/coldchain.conf', [
        ['password_file /etc/mosquitto/coldchain/passwd', `password_file ${passwordFile}`],
        ['acl_file /etc/mosquitto/coldchain/acl', `acl_file ${path.join(dir, 'mosquitto.acl')}`],
        ['\nlistener 8883\n', `\nlistener ${mqttTlsPort} 127.0.0.1\n`],
        ['certfile /etc/mosquitto/certs/fullchain.pem', `certfile ${certFile}`],
        ['keyfile /etc/mosquitto/certs/privkey.pem', `keyfile ${keyFile}`],
        ['\nlistener 1883 127.0.0.1\n', `\nlistener ${mqttLocalPort} 127.0.0.1\n`],
      ]),
    );
    const runAs = process.getuid?.() === 0 ? `user ${userInfo().username}\n` : '';
    writeFileSync(
      path.join(dir, 'mosquitto.conf'),
      `${runAs}persistence false\nlog_dest file ${path.join(dir, 'mosquitto.log')}\nlog_type all\ninclude_dir ${path.join(dir, 'mosquitto.d')}\n`,
    );
    const mosquitto = startChild('mosquitto', ['-c', path.join(dir, 'mosquitto.conf')], {});
    children.push(mosquitto);
    const mosquittoLog = () => {
      try {
        return `${mosquitto.output()}\n${readFileSync(path.join(dir, 'mosquitto.log'), 'utf8').slice(-4000)}`;
      } catch {
        return mosquitto.output();
      }
    };
    await waitForPort(mqttLocalPort, 'mosquitto', mosquittoLog);
    await waitForPort(mqttTlsPort, 'mosquitto', mosquittoLog);

    // --- nginx: Debian's nginx.conf around our conf.d file ---------------------------------
    mkdirSync(path.join(dir, 'acme'));
    const listen6 = (port: number, rest = '') => (ipv6 ? `listen [::1]:${port}${rest};` : '# no IPv6 here');
    writeFileSync(
      path.join(dir, 'coldchain.conf'),
      render('nginx/coldchain.conf', [
        ['server 127.0.0.1:8081 ', `server 127.0.0.1:${portA} `],
        ['server 127.0.0.1:8082 ', `server 127.0.0.1:${portB} `],
        ['listen 80;', `listen 127.0.0.1:${httpPort};`],
        ['listen [::]:80;', listen6(httpPort)],
        ['listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`],
        ['listen [::]:443 ssl http2;', listen6(httpsPort, ' ssl http2')],
        ['/etc/letsencrypt/live/cold.example.com/fullchain.pem', certFile],
        ['/etc/letsencrypt/live/cold.example.com/privkey.pem', keyFile],
        ['root /var/www/letsencrypt;', `root ${path.join(dir, 'acme')};`],
      ]),
    );
    const temp = (name: string) => `${name}_temp_path ${path.join(dir, `nginx-${name}`)};`;
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        process.getuid?.() === 0 ? `user ${userInfo().username};` : '',
        'worker_processes 1;',
        `pid ${path.join(dir, 'nginx.pid')};`,
        `error_log ${path.join(dir, 'nginx-error.log')} info;`,
        'events { worker_connections 512; }',
        'http {',
        '  include /etc/nginx/mime.types;',
        '  default_type application/octet-stream;',
        '  sendfile on;',
        `  access_log ${path.join(dir, 'nginx-access.log')};`,
        `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
        `  include ${path.join(dir, 'coldchain.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    const nginxArgs = ['-p', dir, '-c', path.join(dir, 'nginx.conf')];
    await run('nginx', [...nginxArgs, '-t', '-q']).catch((error: { stderr?: string }) => {
      throw new Error(`nginx -t refused deploy/nginx/coldchain.conf:\n${error.stderr ?? error}`);
    });
    const nginx = startChild('nginx', [...nginxArgs, '-g', 'daemon off;'], {});
    children.push(nginx);
    await waitForPort(httpsPort, 'nginx', nginx.output);
    const nginxErrors = () => {
      try {
        return readFileSync(path.join(dir, 'nginx-error.log'), 'utf8');
      } catch {
        return '';
      }
    };

    // --- the two instances, as systemd starts coldchain@a and coldchain@b -------------------
    const unit = readUnit();
    const [node, ...nodeArgs] = unit.execStart;
    if (node !== '/usr/bin/node') throw new Error(`ExecStart runs ${node}, not /usr/bin/node`);
    // A console of two files: the server's own copies are compressed at build time, nginx gzips the rest.
    const webDist = path.join(dir, 'web');
    mkdirSync(path.join(webDist, 'assets'), { recursive: true });
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><title>ColdChain</title><div id="root"></div>',
    );
    writeFileSync(
      path.join(webDist, 'assets/app.js'),
      `console.log(${JSON.stringify('cold '.repeat(2000))});\n`,
    );
    const instances: Instance[] = [];
    // One after the other: started at the same instant on an empty database, the second has been
    // seen to stop on the reading partitions the first was creating (`create table if not exists
    // readings_<month>` racing; systemd's Restart=on-failure starts it again five seconds later).
    for (const [name, port] of [
      ['a', portA],
      ['b', portB],
    ] as const) {
      let env: Record<string, string> = { ...unit.environment };
      for (const file of unit.environmentFiles) {
        const committed = file.replace('/etc/coldchain/', `${deployDir}/env/`).replace('%i', name);
        env = { ...env, ...readEnvFile(committed) };
      }
      if (env.PORT !== String(name === 'a' ? 8081 : 8082))
        throw new Error(
          `deploy/env/instance-${name}.env: PORT ${env.PORT} is not the port nginx's upstream names`,
        );
      const mqttUrl = new URL(env.MQTT_URL!);
      const overrides: Record<string, string> = {
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        MQTT_URL: `mqtt://${mqttUrl.username}:${serverPassword}@127.0.0.1:${mqttLocalPort}`,
        SECRET_KEY: randomBytes(32).toString('hex'),
        METRICS_TOKEN: metricsToken,
        DATA_DIR: path.join(dir, `data-${name}`),
        UPLOAD_DIR: path.join(dir, 'uploads'),
      };
      for (const key of Object.keys(overrides))
        if (!(key in env)) throw new Error(`${key} is not in the committed env files any more`);
      const child = startChild(process.execPath, nodeArgs, {
        cwd: unit.workingDirectory === '/opt/coldchain' ? repoRoot : unit.workingDirectory,
        // What systemd gives the process: the unit's and the files' settings, nothing inherited.
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          ...env,
          ...overrides,
          WEB_DIST: webDist,
          LOG_LEVEL: 'warn',
        },
      });
      children.push(child);
      const instance = { ...child, name, port, baseUrl: `http://127.0.0.1:${port}` };
      instances.push(instance);
      await waitForHealthy(instance);
    }

    return {
      dir,
      databaseName,
      databaseUrl,
      httpPort,
      httpsPort,
      mqttTlsPort,
      certFile,
      metricsToken,
      instances,
      mosquitto: { child: mosquitto.child, output: mosquittoLog },
      nginx,
      nginxErrors,
      async addMqttDevice(serial, key) {
        await run('mosquitto_passwd', ['-b', passwordFile, serial, key]);
        mosquitto.child.kill('SIGHUP');
        // The reload is logged; give it a moment (it is immediate, but signal handling is not synchronous).
        await new Promise((r) => setTimeout(r, 300));
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Distinct free ports by name (a port freed by one probe could be handed out again by the next). */
async function uniquePorts<Name extends string>(names: readonly Name[]): Promise<Record<Name, number>> {
  const ports = new Set<number>();
  while (ports.size < names.length) ports.add(await freePort());
  const list = [...ports];
  return Object.fromEntries(names.map((name, i) => [name, list[i]!])) as Record<Name, number>;
}

async function waitForHealthy(instance: Instance, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (instance.child.exitCode !== null)
      throw new Error(`instance ${instance.name} exited:\n${instance.output()}`);
    const answer = await fetchRaw(`${instance.baseUrl}/readyz`).catch(() => null);
    if (answer?.status === 200) return;
    if (Date.now() > deadline)
      throw new Error(`instance ${instance.name} not ready: ${answer?.body}\n${instance.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
