#!/usr/bin/env node
// The `caretaker` command. Node >= 22.18 / 24 runs the TypeScript sources directly (type stripping:
// the sources use erasable syntax only, enforced by tsconfig `erasableSyntaxOnly`), so nothing is
// compiled at start-up and a fresh clone needs no build step. `npm run build` still emits dist/
// for images that prefer plain JavaScript (`node dist/cli.js serve`).
if (!process.features.typescript) {
  process.stderr.write(
    `caretaker: Node ${process.version} cannot run the TypeScript sources; use Node 24 (npm start / npm run ` +
      'use the pinned one from devDependencies) or Node >= 22.18.\n',
  );
  process.exit(1);
}
// Node's compile cache (docs/operations.md "Starting"): V8 keeps the compiled code of every module in
// NODE_COMPILE_CACHE or the system's temporary folder, so a restart does not compile the sources
// again. A cache that cannot be written is skipped silently.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
// On the embedded database the server sizes its process for a small machine (glibc's mmap
// threshold, a smaller young generation: docs/operations.md "Memory on the embedded database").
// glibc reads its settings only at a process's start, so the server starts itself again, in the
// same process, with them set; nothing else has been loaded yet.
const { embeddedRelaunch } = await import('../src/main/process-sizing.ts');
const relaunch = embeddedRelaunch({
  env: process.env,
  argv: process.argv,
  execArgv: process.execArgv,
  platform: process.platform,
  canExec: typeof process.execve === 'function',
});
if (relaunch) {
  try {
    process.execve(process.execPath, relaunch.args, relaunch.env);
  } catch (error) {
    // Cannot start again (a sandbox refusing execve): go on with the process as it is.
    process.stderr.write(`caretaker: serving without the embedded database's memory settings (${error instanceof Error ? error.message : String(error)})\n`);
  }
}
// Tracing (docs/operations.md "Tracing"): only when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_TRACES_EXPORTER=console)
// asks for it, and only for the commands that serve, the SDK is imported and the import-in-the-middle
// loader registered, before the application's modules (pg, ioredis, fastify) load. Otherwise
// nothing of OpenTelemetry is loaded.
const { tracingWanted } = await import('../src/lib/tracing.ts');
const args = process.argv.slice(2);
const command = args.find((a) => !a.startsWith('-'));
const serving = (command === undefined || command === 'serve' || command === 'worker') && !args.some((a) => ['-h', '--help', '-V', '--version'].includes(a));
if (serving && tracingWanted(process.env)) {
  const { startTracing } = await import('../src/main/telemetry.ts');
  await startTracing();
}
await import('../src/main/cli.ts');
