import { writeFileSync } from 'node:fs';
import { buildTestApp } from './test/helpers/app.ts';
const t = await buildTestApp();
const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
writeFileSync('/tmp/dx/openapi.json', res.body);
console.log(res.statusCode, res.body.length);
await t.close();
process.exit(0);
