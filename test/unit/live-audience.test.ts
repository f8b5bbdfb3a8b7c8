/**
 * Who hears a conversation message on the live stream (docs/live-updates.md, docs/conversations.md):
 * staff hear every thread; a tenant, contractor or landlord only the thread of their own kind, never
 * the internal one; an account of another agency nothing. The job's own visibility is checked
 * separately (visibleJobUuids).
 */
import { describe, expect, it } from 'vitest';
import { audienceAllows, liveCandidate } from '../../src/modules/jobs/live/live-events.ts';

function message(audience: string) {
  const candidate = liveCandidate({
    id: '41',
    name: 'conversation.message_posted',
    agency_id: 7,
    occurred_at: new Date('2026-11-26T18:07:00Z'),
    payload: { job_id: 3, job_uuid: '0b6a7c1e-7d1f-4a47-9a55-1f3d2b8c9e10', reference: 'NW-1001', audience, author_user_id: 12, message_id: 5 },
  } as never);
  if (!candidate) throw new Error('no candidate');
  return candidate;
}

const agency = { kind: 'agency', agencyId: 7 } as const;
const tenant = { kind: 'tenant', tenantId: 1, userId: 20 } as const;
const contractor = { kind: 'contractor', contractorId: 2 } as const;
const landlord = { kind: 'landlord', landlordId: 3 } as const;

describe('conversation messages on the live stream', () => {
  it('staff hear every thread, each party only its own', () => {
    for (const audience of ['tenant', 'contractor', 'landlord', 'internal']) {
      expect(audienceAllows(message(audience), agency as never, 7)).toBe(true);
      expect(audienceAllows(message(audience), tenant as never, 7)).toBe(audience === 'tenant');
      expect(audienceAllows(message(audience), contractor as never, 7)).toBe(audience === 'contractor');
      expect(audienceAllows(message(audience), landlord as never, 7)).toBe(audience === 'landlord');
    }
  });

  it('carries no author, message id or internal job id, and nothing to another agency', () => {
    const candidate = message('tenant');
    expect(Object.keys(candidate.event).sort()).toEqual(['at', 'id', 'job_uuid', 'reference', 'type']);
    expect(audienceAllows(candidate, { kind: 'agency', agencyId: 8 } as never, 8)).toBe(false);
  });
});
