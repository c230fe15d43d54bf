/**
 * What each `/open/v1` call answers, for the OpenAPI document (plugins/openapi-document.ts): the
 * integrator reads these in Swagger UI or a generated SDK, so they say what API.md and
 * docs/open-api.md say about the call. Documentation only; nothing here changes an answer.
 */
export const openCallDocs = {
  devices: {
    summary: 'List the devices opened to the key',
    description: [
      'A page of the devices opened to this key (of its own company), by name, then id, each with its sensors (channels) and their latest reading.',
      '`pageNum` from 1 (default 1), `pageSize` 1 to 200 (default 20); `total` counts every device opened to the key.',
      'Device `state`: 1 normal, 2 alarm, 3 abnormal, 4 offline, 5 in service, 6 disposed. Times are epoch milliseconds.',
    ].join('\n\n'),
  },
  readings: {
    summary: "A sensor's readings over a time range",
    description: [
      "The readings of one sensor of a device opened to the key from `startTime` up to `endTime` (epoch milliseconds, `endTime` after `startTime`), oldest first, as `[time, value]` pairs, with the range's min, max, average and mean kinetic temperature (the console's history data).",
      "Downsampling: with `maxPoints` (2 to 100000) and more readings than that in the range, the range is cut into `maxPoints / 2` buckets and each bucket's lowest and highest reading is answered with its own time, so no excursion disappears; without `maxPoints` every reading is answered, so ask for long ranges with it.",
      'A sensor that is unknown or not opened to the key answers msgCode 500 "No permission for this service or operation". Readings of a lapsed service period not yet recovered are left out.',
    ].join('\n\n'),
  },
  alarms: {
    summary: 'List the alarm records of the opened devices',
    description: [
      "A page of the alarm records of the devices opened to the key, newest first (the console's alarm list).",
      '`startTime` / `endTime` (epoch milliseconds, both optional; `endTime` after `startTime`) keep the alarms raised at or after `startTime` and before `endTime`.',
      '`pageNum` from 1 (default 1), `pageSize` 1 to 200 (default 20). `content` holds the alarm text in Chinese (`cn`) and English (`en`); `resolveState`: 1 pending, 2 in progress, 3 resolved, 4 expired, 5 normalized.',
    ].join('\n\n'),
  },
} as const;
