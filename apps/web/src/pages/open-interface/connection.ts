import type { DeviceView } from '@coldchain/contract';

/** Topics of device protocol v1 (docs/device-protocol.md) for one serial. */
export function topicsFor(serial: string) {
  const base = `cc/v1/${serial}`;
  return {
    up: `${base}/up`,
    event: `${base}/event`,
    down: `${base}/down`,
    ack: `${base}/ack`,
    error: `${base}/error`,
  };
}

/** The addresses from clientConfig, or what the browser knows when an older server sends none. */
export function endpointsFrom(config: { deviceMqttUrl?: string; deviceHttpUrl?: string } | undefined) {
  const http = config?.deviceHttpUrl || `${window.location.origin}/device/v1/up`;
  return {
    mqtt: config?.deviceMqttUrl || `mqtt://${window.location.hostname}:1883`,
    http,
    httpEvent: http.replace(/\/up$/, '/event'),
  };
}

/** An `up` payload for this device's own channels, values inside each sensor's range. */
export function upExample(device: DeviceView, now: number): string {
  const channels = (device.sensors.length ? device.sensors : [{ channel: 1, rangeMin: 0, rangeMax: 10 }]).map(
    (s) => ({ ch: s.channel, v: Number(((s.rangeMin + s.rangeMax) / 2).toFixed(1)) }),
  );
  return JSON.stringify(
    {
      records: [
        {
          ts: now,
          channels,
          battery: 87,
          power: 'mains',
          mode: 'normal',
          lat: 3.139,
          lng: 101.6869,
        },
      ],
    },
    null,
    2,
  );
}

export function eventExample(now: number): string {
  return JSON.stringify({ ts: now, event: 'powerOff' }, null, 2);
}

/** A curl line for the HTTP path; the key is a placeholder since it is never shown again. */
export function curlExample(endpoint: string, serial: string, payload: string): string {
  const compact = JSON.stringify(JSON.parse(payload));
  return `curl -X POST '${endpoint}' \\\n  -u '${serial}:<device key>' \\\n  -H 'content-type: application/json' \\\n  -d '${compact}'`;
}
