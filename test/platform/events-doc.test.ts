/** docs/events.md is generated from the event catalogue; this fails when someone forgot to regenerate it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_CATALOGUE } from '../../src/events/index.ts';
import { renderEventsDoc } from '../../src/events/events-doc.ts';

describe('docs/events.md', () => {
  it('matches the catalogue (run npm run docs:events after changing src/events/catalogue.ts)', () => {
    const committed = readFileSync(new URL('../../docs/events.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderEventsDoc());
    for (const name of Object.keys(EVENT_CATALOGUE)) expect(committed).toContain(`### ${name}`);
  });
});
