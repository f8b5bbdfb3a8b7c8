// Writes docs/events.md from the event catalogue (`npm run docs:events`).
import { writeFileSync } from 'node:fs';
import { renderEventsDoc } from '../src/events/events-doc.ts';

writeFileSync(new URL('../docs/events.md', import.meta.url), renderEventsDoc());
process.stdout.write('docs/events.md written\n');
