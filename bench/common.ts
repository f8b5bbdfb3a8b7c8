/**
 * What the bench scripts share (bench/README.md): a free port to give a server, the CPU time a
 * process has used (Linux /proc), a median, and the time and load average printed at a run's start
 * and end.
 */
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import { loadavg } from 'node:os';

/** A port nobody listens on now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * CPU time (user + system) a process has used so far, in ms (utime and stime from
 * /proc/<pid>/stat, in clock ticks of 10 ms; Linux only, else undefined). Unlike req/s, CPU time
 * per request barely depends on how many other processes wait for the same cores.
 */
export async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.length > 13 ? (Number(fields[11]) + Number(fields[12])) * 10 : undefined;
}

/** The middle value of `values` (the upper one of the two middle values for an even count). */
export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** The time now (ISO) and the load average at 1, 5 and 15 minutes, e.g. `2026-11-30T09:12:58.044Z, load average 0.5, 3.3, 3.3`. */
export function machine(): string {
  return `${new Date().toISOString()}, load average ${loadavg().map((n) => n.toFixed(1)).join(', ')}`;
}
