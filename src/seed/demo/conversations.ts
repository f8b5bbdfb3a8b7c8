/**
 * Demo step for job conversations (docs/conversations.md, docs/demo-data.md): on about a third
 * of the open jobs with a tenant, a tenant thread where the agency and the tenant write by web,
 * e-mail and SMS; on some of those with a contractor, a contractor thread as well. The case notes
 * of the job-files step show in the threads too (they are not copied).
 */
import { insertReturning, insertRows, jobsForConversations, staffWithNames } from '../../db/seed.repository.ts';
import type { DemoContext } from './context.ts';

const TENANT_TALK: Array<Array<{ from: 'staff' | 'tenant'; channel: 'web' | 'email' | 'sms'; body: string }>> = [
  [
    { from: 'staff', channel: 'web', body: 'Thanks for reporting this. Could you send a photo of the leak so we can brief the plumber?' },
    { from: 'tenant', channel: 'email', body: 'Here it is. It is worse after a shower.' },
    { from: 'staff', channel: 'web', body: 'Thank you. The plumber can come on Thursday between 8 and 12. Does that suit you?' },
    { from: 'tenant', channel: 'sms', body: 'Thursday morning is fine, I will be in.' },
  ],
  [
    { from: 'tenant', channel: 'web', body: 'The boiler keeps losing pressure, I have topped it up twice this week.' },
    { from: 'staff', channel: 'web', body: 'Sorry to hear that. We are booking a gas engineer and will confirm the date today.' },
    { from: 'tenant', channel: 'email', body: 'Great, any day after 2pm works for me.' },
  ],
  [
    { from: 'staff', channel: 'web', body: 'The engineer needs to return with a part. We will let you know when it arrives.' },
    { from: 'tenant', channel: 'sms', body: 'OK thanks for letting me know.' },
  ],
];

const CONTRACTOR_TALK = [
  { from: 'staff' as const, channel: 'web' as const, body: 'Tenant is in from 8am; please ring before you arrive.' },
  { from: 'contractor' as const, channel: 'sms' as const, body: 'Will do. ETA 8:30.' },
  { from: 'contractor' as const, channel: 'email' as const, body: 'Job done, replaced the washer and tested. Invoice to follow.' },
];

const OPEN = [1, 2, 3, 4, 5, 6];

/** Adds the demo conversations. */
export async function conversationsStep(ctx: DemoContext): Promise<void> {
  const { trx, rng, now } = ctx;
  const staff = await staffWithNames(trx);
  const jobs = (await jobsForConversations(trx)).filter((j) => OPEN.includes(j.status_id));
  type Line = { from: string; channel: 'web' | 'email' | 'sms'; body: string };
  const planned: Array<{ job: (typeof jobs)[number]; agent: (typeof staff)[number]; audience: 'tenant' | 'contractor'; lines: Line[]; created: number; step: number }> = [];
  for (const job of jobs) {
    const agents = staff.filter((s) => s.agency_id === job.agency_id);
    if (agents.length === 0 || !rng.chance(0.35)) continue;
    const agent = rng.pick(agents);
    const created = new Date(job.created_at).getTime();
    const span = Math.max(3_600_000, now.getTime() - created);
    const talks: Array<{ audience: 'tenant' | 'contractor'; lines: Line[] }> = [{ audience: 'tenant', lines: rng.pick(TENANT_TALK) }];
    if (job.contractor_id !== null && job.status_id >= 4 && rng.chance(0.5)) talks.push({ audience: 'contractor', lines: CONTRACTOR_TALK });
    for (const talk of talks) planned.push({ job, agent, ...talk, created, step: Math.floor(span / (talk.lines.length + 1)) });
  }
  // Two statements for all the threads and their messages (the demo load's time is tested).
  const rows = await insertReturning(trx, 'conversation_threads', planned.map((p) => ({
    uuid: ctx.uuid(), agency_id: p.job.agency_id, job_id: p.job.id, audience: p.audience, created_at: new Date(p.created + p.step), last_message_at: new Date(p.created + p.step * p.lines.length),
  })));
  const messageRows = planned.flatMap((p, k) => p.lines.map((line, i) => {
    const byStaff = line.from === 'staff';
    return {
      uuid: ctx.uuid(), agency_id: p.job.agency_id, thread_id: rows[k]!.id, job_id: p.job.id, author_user_id: byStaff ? p.agent.id : null,
      author_kind: byStaff ? ('staff' as const) : (line.from as 'tenant' | 'contractor'),
      author_key: byStaff ? null : line.from === 'tenant' ? `tenant:${p.job.tenant_id}` : `contractor:${p.job.contractor_id}`,
      author_name: byStaff ? p.agent.name : line.from === 'tenant' ? p.job.tenant_name : (p.job.contact_name ?? p.job.company_name ?? 'Contractor'),
      channel: line.channel, body: line.body, urgent: false, external_id: null, created_at: new Date(p.created + p.step * (i + 1)),
    };
  }));
  for (let i = 0; i < messageRows.length; i += 500) await insertRows(trx, 'conversation_messages', messageRows.slice(i, i + 500));
  const threads = rows.length;
  const messages = messageRows.length;
  ctx.log(`demo: ${threads} conversation threads with ${messages} messages`);
}
