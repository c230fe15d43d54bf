import { readFileSync } from 'node:fs';

/** CPU seconds of a process (utime + stime, from /proc in clock ticks of 10 ms), with its ended and waited-for children if asked. */
export function cpuSeconds(pid: number, options: { withChildren?: boolean } = {}): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const children = options.withChildren ? Number(fields[13]) + Number(fields[14]) : 0;
  return (Number(fields[11]) + Number(fields[12]) + children) / 100;
}
