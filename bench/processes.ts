/**
 * What the bench scripts need to know about the processes they start (bench/README.md): a free
 * port to give a server, and the CPU time a process has used (Linux /proc).
 */
import { readFile } from 'node:fs/promises';
import net from 'node:net';

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
