/**
 * GDPR for landlords (docs/gdpr.md "Landlords"), as for tenants: the subject-access report
 * (the landlord record with bank details, properties and shares, approval requests with their
 * answers, conversation messages and SMS log, activity entries about them) as JSON or zip, logged as `landlord.gdpr_export`; and the
 * erasure: name replaced ("Erased landlord 4f2a"), contact, correspondence address, bank details,
 * VAT number and notes cleared, property links removed, waiting approvals withdrawn (their links
 * refused from then on), and the name, e-mail and phone scrubbed from the agency's job texts,
 * notes, approval comments and activity details; the name and postal address on the landlord's
 * VAT records (recharge invoices, credit notes, statements) are kept, restricted to that purpose,
 * for the agency's `vat_records` period (VATA 1994 Sch. 11 para. 6(3); VAT Notice 700/21) and
 * released by the retention task. Logged as `landlord.erase` without the name.
 */
import { isoOrNull as iso } from '../../../lib/fields.ts';
import type { AppDeps } from '../../../app-deps.ts';
import type { Actor, AuthContext } from '../../../core/auth-context.ts';
import { conflict } from '../../../core/errors.ts';
import { recordActivity } from '../../../core/activity/index.ts';
import { addressesByIds, toAddressDto } from '../../people/addresses/index.ts';
import {
  anonymiseLandlord, approvalsOfLandlord, bankDetailsOf, getLandlordRow, latestVatRecordOn, restrictVatParticulars, sharesOfLandlord, toLandlordDto,
} from '../../money/landlords/index.ts';
import { addMonths } from '../../../lib/london-time.ts';
import { rechargesOfLandlord } from '../../money/recharges/index.ts';
import { scrubJobTexts, scrubText, type RetainedGroup, type Term } from './erasure.service.ts';
import { insertRetained } from './retention.repository.ts';
import { retentionMonths } from './retention.service.ts';
import { retentionKind } from './retention.ts';
import * as repo from './landlords.repository.ts';
import { consentsOfUsers } from './consents.repository.ts';
import { toConsentDto } from './consents.service.ts';
import { conversationsAndSms } from './report.service.ts';

/**
 * GET /api/landlords/{uuid}/gdpr-report: everything held about the landlord.
 * @param format 'json' or 'zip' (recorded in the log entry)
 * @throws 404 'Landlord not found'
 */
export async function buildLandlordReport(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string, format: 'json' | 'zip') {
  const landlord = await getLandlordRow(deps.db, auth, uuid);
  const [bank, shares, approvals, recharges, activity] = await Promise.all([
    bankDetailsOf(deps.db, landlord.id),
    sharesOfLandlord(deps.db, landlord.id),
    approvalsOfLandlord(deps.db, landlord.id),
    rechargesOfLandlord(deps.db, landlord.id),
    repo.activityOfLandlord(deps.db, landlord.id),
  ]);
  const addresses = await addressesByIds(deps.db, shares.map((s) => s.address_id));
  const userIds = await repo.landlordUserIds(deps.db, landlord.agency_id, landlord.id);
  const talk = await conversationsAndSms(deps, landlord.agency_id, { landlordId: landlord.id }, userIds, [landlord.phone]);
  const smsConsents = (await consentsOfUsers(deps.db, userIds)).filter((c) => c.purpose === 'sms_updates').map(toConsentDto);
  const share = new Map(shares.map((s) => [s.address_id, s.share_bp]));
  const agency = await repo.agencyName(deps.db, landlord.agency_id);
  const now = deps.clock.now();
  const report = {
    generated_at: now.toISOString(),
    controller: agency.name,
    subject: { ...toLandlordDto(landlord), bank_details: { account_name: bank.bank_account_name, sort_code: bank.bank_sort_code, account_number: bank.bank_account_number } },
    properties: addresses.map((a) => ({ address: toAddressDto(a), share_bp: share.get(a.id)! })),
    approvals: approvals.map((a) => ({
      uuid: a.uuid, job_reference: a.job_reference, description: a.description, amount_pence: a.amount_pence, status: a.status, comment: a.comment,
      created_at: iso(a.created_at), answered_at: iso(a.answered_at),
    })),
    recharges,
    conversations: talk.conversations,
    sms: { ...talk.sms, consents: smsConsents },
    activity: activity.map((a) => ({ ID: a.id, action: a.action, resource_type: a.resource_type, user_name: a.user_name, created_at: iso(a.created_at) })),
  };
  await recordActivity(deps.db, actor, now, {
    action: 'landlord.gdpr_export', resourceType: 'landlord', resourceId: landlord.id, agencyId: landlord.agency_id, details: { format },
  });
  return report;
}

/** The sections of a landlord's report, as README.txt lists them. */
export const LANDLORD_SECTIONS = `  subject         the landlord record, with the bank details held
  properties      properties the landlord owns, with the ownership share (basis points)
  approvals       approval requests sent to the landlord, with answers and comments
  recharges       contractor costs recharged to the landlord with the agency's fee (pence)
  conversations   messages the landlord wrote, and messages in the landlord thread of jobs at
                  their properties
  sms             the landlord's number (with any STOP reply), their accounts' SMS consents,
                  and the texts sent to them and received from them, with status and cost
  activity        audit-log entries about the landlord`;

/** What an erasure did (no personal data). */
export interface LandlordErasureResult {
  uuid: string;
  name: string;
  erased_at: string;
  properties_unlinked: number;
  approvals_withdrawn: number;
  jobs_scrubbed: number;
  notes_scrubbed: number;
  comments_scrubbed: number;
  /** Records kept (restricted, not cleared) because a stated retention requires them. */
  retained: RetainedGroup[];
}

/** The fields an erasure keeps, restricted, for the landlord's VAT records. */
export const VAT_KEPT_FIELDS = 'name and postal address (address_line1, address_line2, address_town, address_postcode)';

/**
 * POST /api/landlords/{uuid}/erase: anonymises the landlord for good.
 * @throws 404 landlord, 409 already erased
 */
export async function eraseLandlord(deps: AppDeps, auth: AuthContext, actor: Actor, uuid: string): Promise<LandlordErasureResult> {
  const landlord = await getLandlordRow(deps.db, auth, uuid);
  if (landlord.erased_at !== null) throw conflict('Landlord has already been erased');
  const now = deps.clock.now();
  const newName = `Erased landlord ${landlord.uuid.replace(/-/g, '').slice(0, 4)}`;
  const terms: Term[] = [];
  for (const [text, replacement] of [[landlord.name, newName], [landlord.email, '[erased e-mail]'], [landlord.phone, '[erased phone]']] as const) {
    const v = text?.trim();
    if (v && v.length >= 3) terms.push({ text: v, replacement });
  }
  terms.sort((a, b) => b.text.length - a.text.length);
  return deps.db.transaction().execute(async (trx) => {
    // VAT records keep the customer's name and address for 6 years (VAT Regulations 1995 reg. 14(1);
    // VATA 1994 Sch. 11 para. 6(3)): restricted to them, released when the period ends.
    const retained: RetainedGroup[] = [];
    const latest = await latestVatRecordOn(trx, landlord.id);
    if (latest !== null) {
      const months = await retentionMonths(trx, landlord.agency_id, 'vat_records');
      const until = addMonths(latest, months);
      const ground = `the customer's name and address on VAT invoices and credit notes (VAT Regulations 1995 reg. 14(1)), kept restricted for ${months} months after the latest (${latest}): ${retentionKind('vat_records')!.source}`;
      await restrictVatParticulars(trx, landlord.id, ground, until, now);
      await insertRetained(trx, [{
        agency_id: landlord.agency_id, subject_type: 'landlord', subject_id: landlord.id, record_kind: 'vat_records', table_name: 'landlord_restricted_particulars',
        record_id: landlord.id, retained_until: until, created_at: now,
      }]);
      retained.push({ record_kind: 'vat_records', table: `landlord_restricted_particulars: ${VAT_KEPT_FIELDS}`, records: 1, retained_until: until, ground });
    }
    await anonymiseLandlord(trx, landlord.id, newName, now);
    const unlinked = await repo.unlinkProperties(trx, landlord.id);
    const withdrawn = await repo.withdrawApprovals(trx, landlord.id, now);
    const scrubbed = terms.length ? await scrubJobTexts(trx, landlord.agency_id, terms) : { jobs: 0, notes: 0 };
    let comments = 0;
    for (const c of await repo.approvalComments(trx, landlord.id)) {
      const next = scrubText(c.comment, terms);
      if (next !== c.comment) {
        await repo.setApprovalComment(trx, c.id, next);
        comments += 1;
      }
    }
    const result: LandlordErasureResult = {
      uuid: landlord.uuid, name: newName, erased_at: now.toISOString(), properties_unlinked: unlinked, approvals_withdrawn: withdrawn,
      jobs_scrubbed: scrubbed.jobs, notes_scrubbed: scrubbed.notes, comments_scrubbed: comments, retained,
    };
    const { uuid: _u, name: _n, erased_at: _e, retained: _r, ...facts } = result;
    await recordActivity(trx, actor, now, { action: 'landlord.erase', resourceType: 'landlord', resourceId: landlord.id, agencyId: landlord.agency_id, details: facts });
    return result;
  });
}
