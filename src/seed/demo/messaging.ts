/**
 * Demo step of the messaging area (docs/messaging.md): Northwind overrides the tenant's
 * "visit booked" e-mail (two versions, so the history shows) and the "request received" push;
 * notices for the whole agency, the Leeds branch, the contractors and Southbank; a read receipt;
 * and a few delivery-log rows (sent, suppressed) as the handlers would have written them.
 */
import { MESSAGE_KINDS } from '../../modules/messaging/messaging/index.ts';
import type { DemoContext } from './context.ts';
import { insertId, insertRows, roleIdsByCode, userEmail } from '../../db/seed.repository.ts';

const DAY = 86_400_000;

/** Writes the messaging demo records (see the file comment). */
export async function messagingStep(ctx: DemoContext): Promise<void> {
  const { trx, now, ids } = ctx;
  const northwind = ids.agencies.northwind;
  const admin = ids.users['admin@northwind.test'] ?? null;
  const base = MESSAGE_KINDS['job.visit_booked']!.defaults.email;
  const versions = [
    { subject: 'Your visit is booked: {{ visit.date }}', at: -3 },
    { subject: 'Northwind visit booked: {{ visit.date }}, {{ visit.slot }} ({{ job.reference }})', at: -1 },
  ];
  for (const [i, v] of versions.entries()) {
    await insertRows(trx, 'message_template_versions', [{
      agency_id: northwind, template_key: 'job.visit_booked', channel: 'email', version: i + 1, subject: v.subject,
      mjml: base.mjml!.replace('Please make sure someone can let them in.', 'Please make sure someone can let them in. Need another day? Call us on 0113 496 0000.'),
      text_body: base.text_body!, title: null, body: null, created_by_user_id: admin, created_at: new Date(now.getTime() + v.at * DAY),
    }]);
  }
  await insertRows(trx, 'message_template_versions', [{
    agency_id: northwind, template_key: 'job.received', channel: 'push', version: 1, subject: null, mjml: null, text_body: null,
    title: 'Thanks, {{ recipient.name }}', body: 'We have your request {{ job.reference }} and will book a visit soon.', created_by_user_id: admin, created_at: new Date(now.getTime() - 2 * DAY),
  }]);

  const roles = await roleIdsByCode(trx);
  const role = (code: string) => {
    const id = roles.get(code);
    if (id === undefined) throw new Error(`role ${code} missing`);
    return id;
  };
  const notices = [
    { agency: northwind, branch: null, role: null, title: 'Christmas opening hours', body: 'Our offices close at 13:00 on 24 December and reopen on 2 January. Emergency repairs: call 0113 496 0999.', severity: 'info' as const, from: -2, to: 40 },
    { agency: northwind, branch: ids.branches.leeds, role: null, title: 'Gas safety week in Leeds', body: 'Annual gas safety checks run all next week. Please book access with your tenants.', severity: 'warning' as const, from: -1, to: 10 },
    { agency: northwind, branch: null, role: role('contractor'), title: 'New invoice address', body: 'From 1 December send invoices to accounts@northwind.test only.', severity: 'critical' as const, from: -5, to: null },
    { agency: northwind, branch: null, role: null, title: 'Portal maintenance (done)', body: 'The portal was down for maintenance on Sunday.', severity: 'info' as const, from: -10, to: -8 },
    { agency: ids.agencies.southbank, branch: null, role: null, title: 'Welcome to Caretaker', body: 'Report repairs here; we answer within one working day.', severity: 'info' as const, from: -3, to: null },
  ];
  const noticeIds: number[] = [];
  for (const n of notices) {
    noticeIds.push(await insertId(trx, 'notices', {
      uuid: ctx.uuid(), agency_id: n.agency, branch_id: n.branch, role_id: n.role, title: n.title, body: n.body, severity: n.severity,
      starts_at: new Date(now.getTime() + n.from * DAY), expires_at: n.to === null ? null : new Date(now.getTime() + n.to * DAY),
      created_by_user_id: n.agency === northwind ? admin : null, created_at: new Date(now.getTime() + n.from * DAY), updated_at: new Date(now.getTime() + n.from * DAY),
    }));
  }
  const agent = ids.users['agent@northwind.test'];
  if (agent) await insertRows(trx, 'notice_reads', [{ notice_id: noticeIds[0]!, user_id: agent, read_at: new Date(now.getTime() - DAY) }]);

  const tenantUser = ids.users['tenant@northwind.test'] ?? null;
  const contractorUser = ids.users['contractor@northwind.test'] ?? null;
  const log = [
    { key: 'job.received', event: 'job.created', user: tenantUser, kind: 'tenant', status: 'sent' as const, reason: null, subject: 'We received your repair request', at: -2 },
    { key: 'job.assigned', event: 'job.assigned', user: contractorUser, kind: 'contractor', status: 'sent' as const, reason: null, subject: 'New job', at: -1 },
    { key: 'job.visit_booked', event: 'job.assigned', user: tenantUser, kind: 'tenant', status: 'suppressed' as const, reason: 'preference_off', subject: null, at: -1 },
  ];
  for (const d of log) {
    if (d.user === null) continue;
    const email = await userEmail(trx, d.user);
    const at = new Date(now.getTime() + d.at * DAY);
    await insertRows(trx, 'message_deliveries', [{
      uuid: ctx.uuid(), agency_id: northwind, event_id: ctx.uuid(), event_name: d.event, template_key: d.key, channel: 'email', recipient_key: `user:${d.user}`,
      recipient_kind: d.kind, recipient_user_id: d.user, recipient_address: email, status: d.status, reason: d.reason, attempts: d.status === 'sent' ? 1 : 0,
      last_error: null, subject: d.subject, content: null, next_attempt_at: null, created_at: at, updated_at: at, sent_at: d.status === 'sent' ? at : null,
    }]);
  }
  ctx.log('demo: messaging template overrides, 5 notices, delivery log');
}
