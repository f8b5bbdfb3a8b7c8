/**
 * Demo step of works orders by link, competing quotes and landlord logins (docs/works-orders.md,
 * docs/landlords.md "Landlord logins"), after the landlords step: the login
 * `landlord@northwind.test` linked to Margaret Ellison; a request for competing quotes on a
 * Reported job at one of her properties, sent to three Northwind contractors (two quoted, one not
 * yet), each with its quote link; and a works order by link, live, on an Assigned job of a
 * contractor without a login. Deterministic: uuids and nonces from ctx.uuid().
 */
import type { DemoContext } from './context.ts';
import {
  activeContractorsWithEmail, builtInRoleId, firstAssignedJobOfOtherContractor, firstReportedJobWithoutApproval, insertId, insertRows, landlordAddressIds,
  landlordIdByEmail,
} from '../../db/seed.repository.ts';

const HOUR = 3_600_000;

/** Writes the rows. */
export async function worksOrdersStep(ctx: DemoContext): Promise<void> {
  const { trx, ids, now } = ctx;
  const agencyId = ids.agencies.northwind;
  const margaretId = await landlordIdByEmail(trx, agencyId, 'margaret.ellison@example.test');
  if (margaretId === undefined) return;
  const roleId = await builtInRoleId(trx, 'landlord');
  if (roleId !== undefined) {
    await insertRows(trx, 'users', [{
      uuid: ctx.uuid(), agency_id: agencyId, branch_id: null, role_id: roleId, landlord_id: margaretId, name: 'Margaret Ellison', email: 'landlord@northwind.test',
      password_hash: ctx.passwordHash, status: 'active', invited_at: null, disabled_at: null, last_login_at: new Date(now.getTime() - 20 * HOUR),
      created_at: new Date(now.getTime() - 30 * 24 * HOUR), updated_at: now,
    }]);
  }
  const agent = ids.users['agent@northwind.test'] ?? null;
  const owned = await landlordAddressIds(trx, margaretId);
  const contractors = await activeContractorsWithEmail(trx, agencyId, ids.demoContractorId, 3);
  if (owned.length === 0 || contractors.length < 3) return;

  // Competing quotes on a Reported job at Margaret's property that waits for no approval.
  const reported = await firstReportedJobWithoutApproval(trx, agencyId, owned);
  if (reported) {
    const created = new Date(now.getTime() - 26 * HOUR);
    const deadline = new Date(now.getTime() + 46 * HOUR);
    const requestId = await insertId(trx, 'quote_requests', {
      uuid: ctx.uuid(), agency_id: agencyId, job_id: reported.id, deadline_at: deadline, notes: 'Access through the side gate; the tenant works from home.', status: 'open',
      awarded_quote_id: null, awarded_at: null, created_by_user_id: agent, created_at: created, updated_at: created,
    });
    const prices: Array<number | null> = [38_500, 42_000, null];
    for (const [i, c] of contractors.entries()) {
      const net = prices[i] ?? null;
      const answered = net === null ? null : new Date(created.getTime() + (6 + i * 9) * HOUR);
      let quoteId: number | null = null;
      if (net !== null && answered) {
        quoteId = await insertId(trx, 'quotes', {
          uuid: ctx.uuid(), agency_id: agencyId, job_id: reported.id, contractor_id: c.id, status: 'submitted', vat_registered: false, net_pence: net, vat_pence: 0, gross_pence: net,
          notes: i === 0 ? 'Can start on Monday.' : 'Includes a new pump.', submitted_by_user_id: agent, decided_by_user_id: null, decided_at: null, decision_reason: null,
          created_at: answered, updated_at: answered,
        });
      }
      await insertRows(trx, 'quote_request_invitations', [{ quote_request_id: requestId, contractor_id: c.id, status: quoteId ? 'quoted' : 'invited', quote_id: quoteId, responded_at: answered, created_at: created }]);
      await insertRows(trx, 'works_order_links', [{
        uuid: ctx.uuid(), agency_id: agencyId, job_id: reported.id, contractor_id: c.id, purpose: 'quote', quote_request_id: requestId, nonce: ctx.uuid().replace(/-/g, ''),
        expires_at: deadline, created_by_user_id: agent, created_at: created, last_used_at: answered, used_at: answered, used_action: answered ? 'quote' : null, revoked_at: null, revoked_by_user_id: null,
      }]);
    }
  }

  // A works order by link on an Assigned job of a contractor without a login.
  const assigned = await firstAssignedJobOfOtherContractor(trx, agencyId, ids.demoContractorId);
  if (assigned?.contractor_id) {
    const sent = new Date(now.getTime() - 3 * HOUR);
    await insertRows(trx, 'works_order_links', [{
      uuid: ctx.uuid(), agency_id: agencyId, job_id: assigned.id, contractor_id: assigned.contractor_id, purpose: 'works_order', quote_request_id: null, nonce: ctx.uuid().replace(/-/g, ''),
      expires_at: new Date(sent.getTime() + 30 * 24 * HOUR), created_by_user_id: agent, created_at: sent, last_used_at: null, used_at: null, used_action: null, revoked_at: null, revoked_by_user_id: null,
    }]);
  }
  ctx.log(`works orders: landlord login, ${reported ? 1 : 0} quote request, ${assigned ? 1 : 0} works order by link`);
}
