// `npm start` runs the server as one JavaScript bundle, not through a TypeScript loader, and
// starts a new embedded database from a template instead of PGlite's initdb. Both are built
// here when missing or older than what they are made from, like the console
// (build-web-if-stale.mjs). Figures and reasons: docs/performance.md, "Start and memory".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/server/dist');
const entries = {
  server: 'apps/server/src/server.ts',
  'build-database-template': 'apps/server/src/db/build-database-template.ts',
};
/** The files the last bundle was made from and when its build began (esbuild's metafile). */
const inputsFile = path.join(dist, 'bundle-inputs.json');
const templateDir = path.join(dist, 'pgdata-template');

const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : Number.POSITIVE_INFINITY);

function bundleIsStale() {
  if (!existsSync(inputsFile)) return true;
  if (Object.keys(entries).some((name) => !existsSync(path.join(dist, `${name}.mjs`)))) return true;
  const { startedAt, inputs } = JSON.parse(readFileSync(inputsFile, 'utf8'));
  // A changed build (this script) counts like a changed source; a deleted source too (Infinity).
  return [import.meta.filename, ...inputs.map((input) => path.join(root, input))].some(
    (file) => mtime(file) > startedAt,
  );
}

/**
 * Dependencies stay in node_modules (loaded by Node as they were under tsx); the workspace
 * packages (@coldchain/*) are TypeScript sources and go into the bundle.
 */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@coldchain/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Code that finds files beside itself (the migrations, the database thread's script, the
 * console's files) keeps finding them at the source: `import.meta.url` and `import.meta.dirname`
 * of each source file are rewritten to its own place, seen from the bundle.
 */
const sourceLocations = {
  name: 'source-locations',
  setup(b) {
    b.onLoad({ filter: /\.(ts|mjs)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.')) return undefined;
      const fromDist = path.relative(dist, args.path).split(path.sep).join('/');
      const contents = text
        .replaceAll('import.meta.url', `new URL(${JSON.stringify(fromDist)}, import.meta.url).href`)
        .replaceAll(
          'import.meta.dirname',
          `__sourcePath(import.meta.dirname, ${JSON.stringify(path.posix.dirname(fromDist))})`,
        )
        .replaceAll('import.meta.filename', `__sourcePath(import.meta.dirname, ${JSON.stringify(fromDist)})`);
      return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

async function buildBundle() {
  const startedAt = Date.now();
  mkdirSync(dist, { recursive: true });
  // Loaded only to build: the check alone stays a few milliseconds.
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir: dist,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // What server.ts imports dynamically (the server beyond the database) becomes chunks of its
    // own, loaded while the database starts. Chunks sit beside the entries, in the one directory
    // the source locations below are computed from.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    banner: { js: "import { join as __sourcePath } from 'node:path';" },
    plugins: [externalDependencies, sourceLocations],
  });
  // Chunks are named by their content: the last build's are removed, or they would pile up.
  const written = new Set(Object.keys(result.metafile.outputs).map((output) => path.resolve(root, output)));
  for (const name of readdirSync(dist))
    if (/\.mjs(\.map)?$/.test(name) && !written.has(path.join(dist, name))) rmSync(path.join(dist, name));
  writeFileSync(inputsFile, JSON.stringify({ startedAt, inputs: Object.keys(result.metafile.inputs) }));
}

/** The template is rebuilt for another PGlite, or when a migration is newer than it. */
function templateIsStale() {
  const stampFile = path.join(templateDir, 'template.json');
  if (!existsSync(stampFile)) return true;
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  const pglite = JSON.parse(
    readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  );
  if (stamp.pglite !== pglite.version) return true;
  const migrations = path.join(root, 'apps/server/drizzle');
  const builtAt = statSync(stampFile).mtimeMs;
  return readdirSync(migrations).some((name) => mtime(path.join(migrations, name)) > builtAt);
}

const started = Date.now();
const bundleStale = bundleIsStale();
if (bundleStale) {
  console.log(
    existsSync(inputsFile) ? 'server sources changed: rebuilding the server' : 'building the server',
  );
  // esbuild has printed what is wrong, with file and line: no stack trace on top of it.
  await buildBundle().catch(() => {
    console.error('The server could not be built (errors above).');
    process.exit(1);
  });
}
// With DATABASE_URL there is no embedded database to start.
const templateStale = !process.env.DATABASE_URL && templateIsStale();
if (templateStale) {
  console.log('building the embedded database template (once; new data directories start from it)');
  const result = spawnSync(process.execPath, [path.join(dist, 'build-database-template.mjs'), templateDir], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
if (bundleStale || templateStale) console.log(`server ready to start (${Date.now() - started} ms)`);
else console.log('server bundle is up to date');
