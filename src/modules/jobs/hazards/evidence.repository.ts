/**
 * SQL of a job's evidence pack (docs/compliance.md "Evidence pack"): the job's header and every
 * record its timeline lists (status moves, notes, files, messages sent about it, SLA and statutory
 * clocks). The caller has already checked that the job is visible.
 */
import { sql } from 'kysely';
import type { DbOrTrx } from '../../../db/types.ts';

/** The job's header: reference, title, description, address, tenant, contractor, branch and agency. */
export function evidenceJob(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('jobs as j')
    .innerJoin('agencies as ag', 'ag.id', 'j.agency_id')
    .innerJoin('branches as b', 'b.id', 'j.branch_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .leftJoin('tenants as t', 't.id', 'j.tenant_id')
    .leftJoin('contractors as c', 'c.id', 'j.contractor_id')
    .leftJoin('users as u', 'u.id', 'j.reported_by_user_id')
    .select([
      'j.id', 'j.uuid', 'j.reference', 'j.title', 'j.description', 'j.priority', 'j.created_at', 'j.scheduled_for', 'j.attended_at',
      'ag.name as agency_name', 'b.name as branch_name', 'a.line1', 'a.town', 'a.postcode', 't.name as tenant_name', 't.erased_at as tenant_erased_at',
      'c.company_name as contractor_name', 'u.name as reported_by',
    ])
    .where('j.id', '=', jobId)
    .executeTakeFirstOrThrow();
}

/** Status moves, oldest first, with status names and who made them. */
export function evidenceHistory(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('job_status_history as h')
    .innerJoin('job_statuses as st', 'st.id', 'h.to_status_id')
    .leftJoin('job_statuses as sf', 'sf.id', 'h.from_status_id')
    .leftJoin('users as u', 'u.id', 'h.by_user_id')
    .select(['h.id', 'h.created_at', 'h.note', 'st.name as to_status', 'sf.name as from_status', 'u.name as by_name'])
    .where('h.job_id', '=', jobId)
    .orderBy('h.created_at')
    .orderBy('h.id')
    .execute();
}

/** Every note (internal ones included: the pack is for staff), oldest first. */
export function evidenceNotes(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('job_notes as n')
    .leftJoin('users as u', 'u.id', 'n.author_user_id')
    .select(['n.id', 'n.created_at', 'n.body', 'n.visibility', 'u.name as author'])
    .where('n.job_id', '=', jobId)
    .orderBy('n.created_at')
    .orderBy('n.id')
    .execute();
}

/** The job's files not deleted, oldest first, with their storage keys (for the ZIP). */
export function evidenceFiles(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('job_files as f')
    .leftJoin('users as u', 'u.id', 'f.uploaded_by_user_id')
    .select(['f.id', 'f.uuid', 'f.created_at', 'f.kind', 'f.original_filename', 'f.description', 'f.size_bytes', 'f.sha256', 'f.storage_key', 'u.name as uploaded_by'])
    .where('f.job_id', '=', jobId)
    .where('f.deleted_at', 'is', null)
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute();
}

/** Messages written about the job (their event's payload names it), oldest first; no content, no address. */
export function evidenceMessages(db: DbOrTrx, agencyId: number, jobId: number) {
  return db
    .selectFrom('message_deliveries as m')
    .innerJoin('outbox as o', 'o.event_id', 'm.event_id')
    .select(['m.id', 'm.created_at', 'm.sent_at', 'm.template_key', 'm.channel', 'm.recipient_kind', 'm.status', 'm.subject'])
    .where('m.agency_id', '=', agencyId)
    .where(sql<string>`o.payload->>'job_id'`, '=', String(jobId))
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute();
}

/** SLA clocks of the job with their rules' descriptions and modes. */
export function evidenceSlaClocks(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('sla_clocks as sc')
    .innerJoin('branch_sla_rules as r', 'r.id', 'sc.rule_id')
    .select(['sc.id', 'sc.state', 'sc.started_at', 'sc.due_at', 'sc.stopped_at', 'sc.at_risk_flagged_at', 'sc.breached_at', 'r.description', 'r.calendar'])
    .where('sc.job_id', '=', jobId)
    .where('sc.state', '<>', 'not_applicable')
    .orderBy('sc.id')
    .execute();
}

/** Statutory clocks of the job's hazard. */
export function evidenceHazardClocks(db: DbOrTrx, jobId: number) {
  return db
    .selectFrom('hazard_clocks')
    .select(['id', 'kind', 'state', 'started_at', 'due_at', 'stopped_at', 'at_risk_flagged_at', 'breached_at'])
    .where('job_id', '=', jobId)
    .orderBy('id')
    .execute();
}
