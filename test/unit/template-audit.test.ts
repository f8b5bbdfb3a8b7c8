/**
 * Every message template in people's terms (docs/messaging.md "Dates"): each kind's built-in
 * template of every channel (e-mail subject, HTML and text; push; SMS), rendered with the kind's
 * sample data, writes dates as people read them ("Thu 26 Nov 2026, 18:07"), never ISO, and names
 * no API path: a tenant, landlord or contractor is sent to a page, never to `/api/...`.
 */
import { describe, expect, it } from 'vitest';
import { CHANNELS, MESSAGE_KINDS } from '../../src/modules/messaging/messaging/template-catalogue.ts';
import { renderTemplate } from '../../src/modules/messaging/messaging/render.ts';

/** An ISO 8601 date or timestamp (2026-11-26, 2026-11-26T18:07:00Z). */
const ISO = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}|\b)/;

describe('every message template, rendered with its sample data', () => {
  const cases = Object.values(MESSAGE_KINDS).flatMap((kind) => CHANNELS.filter((c) => kind.defaults[c]).map((channel) => [kind.key, channel] as const));

  it('covers every kind and channel', () => {
    expect(cases.length).toBeGreaterThanOrEqual(Object.keys(MESSAGE_KINDS).length * 2);
  });

  it.each(cases)('%s (%s): no ISO date or time, no API path', async (key, channel) => {
    const kind = MESSAGE_KINDS[key]!;
    for (const [name, value] of Object.entries(kind.variables)) {
      expect(value, `sample of ${name}`).not.toMatch(ISO);
      expect(value, `sample of ${name}`).not.toContain('/api/');
    }
    const rendered = await renderTemplate(channel, kind.defaults[channel], kind.variables);
    for (const [part, text] of Object.entries(rendered)) {
      expect(text, `${part}`).not.toMatch(ISO);
      expect(text, `${part}`).not.toContain('/api/');
    }
  });
});
