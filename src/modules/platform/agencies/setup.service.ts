/**
 * The setup checklist of a new agency (docs/onboarding.md, "Setup checklist"): what it still
 * lacks before its agents can log and assign jobs. Each item is counted from the agency's own
 * records; the console shows the list on an administrator's dashboard until every item is done.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { writeAgency } from '../../../core/agency-scope.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import * as repo from './agencies.repository.ts';
import type { SetupDto } from './agencies.schemas.ts';

/** The items in order: key, label, the count that makes it done, and where it is done. */
const ITEMS: { key: keyof Awaited<ReturnType<typeof repo.setupCounts>>; label: string; needs: number; link: string }[] = [
  { key: 'branches', label: 'Name your branches', needs: 1, link: '/branches' },
  { key: 'users', label: 'Invite your agents (at least one besides the first administrator)', needs: 2, link: '/users' },
  { key: 'sla_rules', label: 'Set the SLA response times of your branches', needs: 1, link: '/sla-rules' },
  { key: 'contractors', label: 'Add or import your contractors', needs: 1, link: '/contractors' },
  { key: 'trades', label: 'Give your contractors their trades', needs: 1, link: '/contractors' },
  { key: 'properties', label: 'Add or import your properties', needs: 1, link: '/addresses' },
  { key: 'templates', label: 'Check the message templates sent to tenants and contractors', needs: 1, link: '/templates' },
];

/**
 * GET /api/agencies/current/setup: the checklist of the caller's agency.
 * @returns { done, items: [{ key, label, done, count, link }] }
 * @throws 403 for SysOps (no agency)
 */
export async function setupChecklist(deps: AppDeps, auth: AuthContext): Promise<SetupDto> {
  const counts = await repo.setupCounts(deps.db, writeAgency(auth));
  const items = ITEMS.map((i) => ({ key: i.key, label: i.label, done: counts[i.key] >= i.needs, count: counts[i.key], link: i.link }));
  return { done: items.every((i) => i.done), items };
}
