/**
 * The evidence pack of a job (docs/compliance.md "Evidence pack"): the PDF, parsed back by a PDF
 * text extractor (pdfjs-dist), lists every event of the job's timeline in order with London times;
 * the ZIP holds the PDF, timeline.json and the job's files; only staff who may write the job get it.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchPendingEvents } from '../../../src/events/index.ts';
import { backgroundHandlers } from '../../../src/main/background.ts';
import { pngBytes } from '../../../src/seed/demo/sample-files.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { form } from '../../helpers/upload-form.ts';
import { jobsWorld, type JobsWorld } from '../jobs/fixtures.ts';
import { unzip } from '../../platform/gdpr/unzip.ts';

const FONTS = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Every text item of the PDF, joined by spaces, whitespace collapsed. */
async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl: FONTS }).promise;
  const parts: string[] = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const content = await (await doc.getPage(p)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  await doc.destroy();
  return parts.join(' ').replace(/\s+/g, ' ');
}

describe('evidence pack', () => {
  let t: TestApp;
  let w: JobsWorld;
  let uuid: string;
  beforeAll(async () => {
    t = await buildTestApp({ CARETAKER_PUBLIC_URL: 'https://app.caretaker.test' });
    w = await jobsWorld(t);
    const agent = w.agentA1.client;
    // A social home in England: the regulations apply (docs/compliance.md "Scope").
    expect((await agent.put(`/api/hazards/properties/${w.address.uuid}/scope`, { tenure: 'social' })).statusCode).toBe(200);
    t.clock.set(new Date('2026-11-02T08:15:00Z'));
    const res = await agent.post('/api/jobs/manage', { title: 'Black mould in the bedroom', description: 'Spreading from the window', priority: 2, address_uuid: w.address.uuid, tenant_uuid: w.tenant.uuid });
    expect(res.statusCode, res.body).toBe(201);
    uuid = res.json().data.uuid;
    t.clock.set(new Date('2026-11-02T08:20:00Z'));
    expect((await agent.put(`/api/jobs/${uuid}/hazard`, { category: 'damp_and_mould', severity: 'significant' })).statusCode).toBe(201);
    t.clock.set(new Date('2026-11-02T09:00:00Z'));
    expect((await agent.post(`/api/jobs/${uuid}/photos`, form(pngBytes(), 'ceiling.png', { description: 'Mould above the window' }))).statusCode).toBe(201);
    t.clock.set(new Date('2026-11-03T10:30:00Z'));
    expect((await agent.post(`/api/jobs/${uuid}/notes`, { body: 'Called the tenant; visit agreed for Thursday.', visibility: 'internal' })).statusCode).toBe(201);
    t.clock.set(new Date('2026-11-05T14:00:00Z'));
    expect((await agent.post(`/api/jobs/${uuid}/transitions`, { to_status_id: 2 })).statusCode).toBe(200);
    expect((await agent.post(`/api/jobs/${uuid}/hazard/milestones`, { milestone: 'investigated', at: '2026-11-05T11:00:00Z' })).statusCode).toBe(200);
    t.clock.set(new Date('2026-11-06T09:00:00Z'));
    expect((await agent.post(`/api/jobs/${uuid}/hazard/summary`, { findings: 'Condensation: the extractor fan has failed.', actions: 'Replace the fan, treat the mould.' })).statusCode).toBe(200);
    await dispatchPendingEvents(t.deps, backgroundHandlers());
  });
  afterAll(async () => t?.close());

  it('the JSON timeline holds every kind of event, oldest first', async () => {
    const res = await w.agentA1.client.get(`/api/jobs/${uuid}/evidence-pack`);
    expect(res.statusCode, res.body).toBe(200);
    const pack = res.json().data;
    const kinds = new Set(pack.timeline.map((e: { kind: string }) => e.kind));
    for (const k of ['report', 'status', 'hazard', 'photo', 'note', 'message', 'statutory_clock']) expect(kinds, k).toContain(k);
    const times = pack.timeline.map((e: { at: string }) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(pack.timeline[0]).toMatchObject({ kind: 'report', at_text: 'Mon 2 Nov 2026, 08:15' });
    expect(pack.timeline.some((e: { text: string }) => e.text.startsWith('Message hazard.summary by email to the tenant'))).toBe(true);
  });

  it('the PDF, parsed back, lists every event of the timeline in order', async () => {
    const pack = (await w.agentA1.client.get(`/api/jobs/${uuid}/evidence-pack`)).json().data;
    const res = await w.agentA1.client.get(`/api/jobs/${uuid}/evidence-pack?format=pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(`Evidence pack: ${pack.reference}`);
    let from = 0;
    for (const e of pack.timeline as Array<{ at_text: string; kind: string; text: string }>) {
      const line = `${e.at_text} ${e.kind.replace('_', ' ')} ${e.text}`.replace(/\s+/g, ' ');
      const at = text.indexOf(line, from);
      expect(at, `not found in order: ${line}`).toBeGreaterThanOrEqual(from);
      from = at + line.length;
    }
  });

  it('the ZIP holds the PDF, the timeline and the photo', async () => {
    const res = await w.agentA1.client.get(`/api/jobs/${uuid}/evidence-pack?format=zip`);
    expect(res.statusCode).toBe(200);
    const entries = unzip(res.rawPayload);
    const names = [...entries.keys()];
    expect(names.some((n) => /^evidence-.+\.pdf$/.test(n)), names.join()).toBe(true);
    expect(names).toContain('timeline.json');
    const photo = names.find((n) => n.endsWith('-ceiling.png'))!;
    expect(Buffer.compare(entries.get(photo)!, pngBytes())).toBe(0);
  });

  it('is for staff who may write the job', async () => {
    expect((await w.tenantUser.client.get(`/api/jobs/${uuid}/evidence-pack`)).statusCode).toBe(403);
    expect((await w.adminB.client.get(`/api/jobs/${uuid}/evidence-pack?format=pdf`)).statusCode).toBe(404);
    expect((await w.agentA1.client.get(`/api/jobs/${uuid}/evidence-pack?format=doc`)).statusCode).toBe(400);
  });
});
