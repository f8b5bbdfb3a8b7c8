import { httpCsrf, httpLogin, startCaretaker, stopAllProcesses } from '../test/helpers/process.ts';
const RUN = Date.now().toString(36);
function propertiesCsv(from: number, to: number): Buffer {
  const lines = ['external_ref,line1,town,postcode,branch'];
  for (let i = from; i < to; i++) lines.push(`FAIR-${RUN}-${i},${i + 1} Fairness Row ${RUN},Leeds,LS${1 + (i % 29)} ${i % 10}AB,Branch 6`);
  return Buffer.from(`${lines.join('\n')}\n`);
}
const server = await startCaretaker({ DATABASE_URL: process.env.DB!, REDIS_URL: 'redis://127.0.0.1:6379', CARETAKER_REDIS_PREFIX: `dry:${process.pid}:`, NODE_OPTIONS: process.env.SRV_NODE_OPTIONS ?? '' });
server.child?.stderr?.on('data', (d: Buffer) => { const s = d.toString(); if (s.includes('LOOPGAP')) process.stdout.write(s.split('\n').filter((l) => l.includes('LOOPGAP')).join('\n') + '\n'); });
try {
  await server.waitReady();
  const importer = await httpLogin(server.url, 'admin-2@bench.test', 'bench password 2026');
  for (const [a, b] of [[0, 50000], [50000, 100000]]) {
    const form = new FormData();
    form.set('entity', 'addresses');
    form.set('file', new Blob([new Uint8Array(propertiesCsv(a, b))], { type: 'text/csv' }), `p-${a}.csv`);
    const t = performance.now();
    process.stdout.write(`POST start ${new Date().toISOString()}\n`);
    const res = await fetch(`${server.url}/api/imports`, { method: 'POST', headers: { authorization: `Bearer ${importer.token}`, 'x-csrf-token': await httpCsrf(server.url, importer.token) }, body: form });
    const txt = await res.text();
    process.stdout.write(`dry run ${res.status} ${(performance.now() - t).toFixed(0)} ms, ${txt.length} bytes, end ${new Date().toISOString()}\n`);
  }
  server.child.kill('SIGUSR2'); await new Promise((r) => setTimeout(r, 3000));
} finally { await stopAllProcesses(); }
