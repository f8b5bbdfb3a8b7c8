/**
 * Reads a V8 CPU profile written by the bench server (BENCH_CPU_PROF) and prints where the CPU time
 * went while the server was under load: the window from the first to the last sample whose stack
 * holds a frame matching MARKER ("function file:line" part; default the status handler), its
 * first second left out (first-use compiles), each
 * package's self time (our src/, fastify, pino, ajv, ioredis, pg, node's own code, GC, idle), the
 * functions with the most self time, and our functions' total (self + callees) time.
 *
 *   node bench/profile.ts FILE.cpuprofile [REQUESTS] [MARKER]
 *
 * REQUESTS (the scenario's request count): also prints every figure in µs per request.
 * Used for the per-request floor tables in bench/README.md.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, requestsArg, marker = 'handler src/modules/platform/system/system.routes.ts'] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile.ts FILE.cpuprofile [REQUESTS] [MARKER]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const requests = requestsArg ? Number(requestsArg) : undefined;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** The package (or our folder) a frame belongs to. */
function owner(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : `(native) ${name}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node';
  const ours = /\/(src\/[^/]+|bench)\//.exec(url);
  return ours ? ours[1]! : url;
}
const label = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules\/|src\/|bench\/)/, '$1')}:${n.callFrame.lineNumber + 1}`;

// Sample times, then the load window: first..last sample with a MARKER frame on its stack.
const times: number[] = [];
let t = 0;
for (const d of profile.timeDeltas) times.push((t += d));
const stackOf = (id: number): Node[] => {
  const out: Node[] = [];
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) out.push(byId.get(cur)!);
  return out;
};
let first = -1;
let last = -1;
profile.samples.forEach((id, i) => {
  if (stackOf(id).some((n) => label(n).includes(marker))) {
    if (first < 0) first = i;
    last = i;
  }
});
if (first < 0) throw new Error(`no sample with ${marker} on its stack`);
// The first second is left out: the route's first answer compiles its serializer (one-off work).
const warm = times[first]! + 1e6;
while (first < last && times[first]! < warm) first++;

const self = new Map<string, number>();
const fnSelf = new Map<string, number>();
const fnTotal = new Map<string, number>();
let busy = 0;
let idle = 0;
for (let i = first + 1; i <= last; i++) {
  const dt = times[i]! - times[i - 1]!;
  const node = byId.get(profile.samples[i]!)!;
  if (node.callFrame.functionName === '(idle)') {
    idle += dt;
    continue;
  }
  busy += dt;
  const o = owner(node.callFrame.url, node.callFrame.functionName);
  self.set(o, (self.get(o) ?? 0) + dt);
  fnSelf.set(label(node), (fnSelf.get(label(node)) ?? 0) + dt);
  const seen = new Set<string>();
  for (const n of stackOf(node.id)) {
    if (!/\/src\//.test(n.callFrame.url)) continue;
    const l = label(n);
    if (seen.has(l)) continue;
    seen.add(l);
    fnTotal.set(l, (fnTotal.get(l) ?? 0) + dt);
  }
}
const fmt = (us: number) => `${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / busy).toFixed(1).padStart(5)} %${requests ? ` ${(us / requests).toFixed(1).padStart(7)} µs/req` : ''}`;
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
const io = [...self].filter(([k]) => k === '(native) writeUtf8String' || k === '(native) writev').reduce((sum, [, v]) => sum + v, 0);
process.stdout.write(`window ${((times[last]! - times[first]!) / 1e6).toFixed(2)} s: busy ${fmt(busy)}, idle ${(idle / 1000).toFixed(0)} ms\n`);
process.stdout.write(`  of which socket writes (syscalls; under load mostly waiting for a core) ${fmt(io)}, the rest ${fmt(busy - io)}\n\nself time by package:\n`);
for (const [k, v] of top(self, 20)) process.stdout.write(`  ${fmt(v)}  ${k}\n`);
process.stdout.write('\nfunctions, self time:\n');
for (const [k, v] of top(fnSelf, 30)) process.stdout.write(`  ${fmt(v)}  ${k}\n`);
process.stdout.write('\nour functions (src/), total time:\n');
for (const [k, v] of top(fnTotal, 30)) process.stdout.write(`  ${fmt(v)}  ${k}\n`);
