/**
 * What the bench scripts share (bench/README.md): the bench server started on free ports, the CPU
 * time a process has used (Linux /proc), a median, and the time and load average printed at a run's
 * start and end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';

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

/** A running bench/server.ts: the app on `port`, the same-SQL ceiling on `ceilingPort`, the limit on `limitPort`. */
export interface BenchServer {
  child: ChildProcess;
  port: number;
  ceilingPort: number;
  limitPort: number;
}

/**
 * Starts bench/server.ts of the checkout `root` on three free ports and resolves when it says it
 * is ready on `env.BENCH_ENGINE`. A port found free can be taken by another process before the
 * server listens on it (EADDRINUSE, seen between sets of `npm run bench:ab`): with `attempts` above
 * 1 (bench:ab, whose servers only serve a kept database), a server that exits before it is ready
 * is started again on three new ports, up to `attempts` times in all.
 * @param env the server's whole environment (the ports are added)
 * @param nodeArgs node flags before the script (a CPU profile, BENCH_SERVER_NODE_FLAGS)
 * @param onOutput each chunk the server writes to stdout (the data generator's progress)
 * @throws Error when the server exits first on every attempt, or is ready on another engine
 */
export async function startBenchServer(root: string, env: Record<string, string | undefined>, nodeArgs: string[] = [], onOutput?: (text: string) => void, attempts = 1): Promise<BenchServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(root, env, nodeArgs, onOutput);
    } catch (err) {
      if (!(err instanceof ServerExited) || attempt >= attempts) throw err;
      process.stderr.write(`${err.message}; starting it again on other ports (attempt ${attempt + 1} of ${attempts})\n`);
    }
  }
}

/** The bench server exited before it said it was ready. */
class ServerExited extends Error {}

/** One start of bench/server.ts on three free ports (see startBenchServer). */
async function startOnce(root: string, env: Record<string, string | undefined>, nodeArgs: string[], onOutput?: (text: string) => void): Promise<BenchServer> {
  const [port, ceilingPort, limitPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'bench/server.ts')], {
    cwd: root,
    env: { ...env, PORT: String(port), CEILING_PORT: String(ceilingPort), LIMIT_PORT: String(limitPort) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const text = d.toString();
      onOutput?.(text);
      const ready = /bench server ready on (\w+)/.exec(text);
      if (ready && ready[1] !== env.BENCH_ENGINE) reject(new Error(`bench server runs on ${ready[1]}, expected ${env.BENCH_ENGINE}`));
      else if (ready) resolve();
    });
    child.once('exit', (code) => reject(new ServerExited(`${root}: bench server exited with ${code}`)));
  });
  return { child, port, ceilingPort, limitPort };
}
