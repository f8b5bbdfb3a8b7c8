/**
 * How `caretaker serve` sizes its own process on the embedded database (docs/operations.md
 * "Memory on the embedded database"). Read by bin/caretaker.js before anything else is loaded.
 *
 * PGlite's WebAssembly has one very large function that V8's optimising compiler takes about
 * 600 MB of compiler memory to optimise, a second or so after the start. glibc keeps that memory
 * in its heaps once it is freed (the compiler's many small blocks fall below its mmap threshold),
 * so it stayed resident for the life of the server. With a fixed mmap threshold of 32 KiB those
 * blocks are mapped on their own and handed back when freed; together with 8 MiB semi-spaces (a
 * 16 MiB young generation instead of 32) the idle server holds about 100 MiB less, at no measured
 * cost to the embedded database's throughput (bench/README.md "Memory on the embedded database").
 * On PostgreSQL the same settings cost about 4 % of the jobs list's throughput at 50 connections
 * for 15 MiB, so they are not applied there.
 *
 * glibc reads GLIBC_TUNABLES only when a process starts, so the server starts itself again in the
 * same process (`process.execve`: same pid, same standard streams) with the variable set.
 */

/** The glibc setting applied: allocations of 32 KiB and more get their own mapping. */
export const EMBEDDED_GLIBC_TUNABLES = 'glibc.malloc.mmap_threshold=32768';

/** The young generation's semi-space size for the embedded server, in MiB (node flag). */
export const EMBEDDED_SEMI_SPACE_MB = 8;

/** What bin/caretaker.js needs to decide: the process's own facts. */
export interface ProcessFacts {
  /** process.env */
  env: Record<string, string | undefined>;
  /** process.argv (node, script, then the command's arguments) */
  argv: readonly string[];
  /** process.execArgv (node's own flags) */
  execArgv: readonly string[];
  /** process.platform */
  platform: string;
  /** true when `process.execve` exists (Node >= 22.15 / 23.11) */
  canExec: boolean;
}

/**
 * The arguments and environment to start the server again with, or null to go on as it is.
 * Null unless: the command serves HTTP (`serve`, or no command), the database is the embedded one
 * (no DATABASE_URL), the system is Linux (glibc), `process.execve` exists, and GLIBC_TUNABLES is
 * not set at all (set it, even empty, to keep your own; the relaunched process has it set, so it
 * never relaunches twice).
 * @returns `args` for process.execve (node's path first, then node's flags with
 *   `--max-semi-space-size=8` last so it wins over an earlier one, then the script and its
 *   arguments) and `env` (the environment with GLIBC_TUNABLES added)
 */
export function embeddedRelaunch(p: ProcessFacts): { args: string[]; env: Record<string, string> } | null {
  const commandArgs = p.argv.slice(2);
  const command = commandArgs.find((a) => !a.startsWith('-'));
  const serves = (command === undefined || command === 'serve') && !commandArgs.some((a) => ['-h', '--help', '-V', '--version'].includes(a));
  if (!serves || p.platform !== 'linux' || !p.canExec) return null;
  if (p.env.DATABASE_URL || 'GLIBC_TUNABLES' in p.env) return null;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.env)) if (v !== undefined) env[k] = v;
  env.GLIBC_TUNABLES = EMBEDDED_GLIBC_TUNABLES;
  return {
    args: [p.argv[0]!, ...p.execArgv, `--max-semi-space-size=${EMBEDDED_SEMI_SPACE_MB}`, ...p.argv.slice(1)],
    env,
  };
}
