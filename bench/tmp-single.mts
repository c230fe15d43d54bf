import { benchIngest } from './ingest.bench';
const f = await benchIngest('single', {}, { seconds: Number(process.env.S ?? 8), recordsPerMessage: 1 });
console.log(f.messagesPerSecond);
