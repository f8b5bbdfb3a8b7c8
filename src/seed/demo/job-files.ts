/**
 * Demo step for case notes, documents and photos, and the calendar (docs/demo-data.md): runs
 * after the base step and works on whatever jobs exist by then.
 * - Calendar: every job from Scheduled onwards gets a scheduled_for (London midnight) and a time
 *   slot when it lacks them, and some Scheduled jobs are moved into the coming four weeks so the
 *   calendar and the feed show upcoming visits.
 * - Notes: internal and shared notes on most jobs, by staff, the job's tenant and its contractor.
 * - Files: small real PNG and JPEG photos and PDF documents on some jobs, through ctx.files.
 */
import { DAY_MS } from '../../lib/clock.ts';
import { addDays, londonDate, londonToUtc } from '../../lib/london-time.ts';
import type { DemoContext } from './context.ts';
import { jpegBytes, pdfBytes, pngBytes } from './sample-files.ts';
import { activeTimeRangeIds, activeUsersWithRole, insertRows, jobsForNotesAndFiles, updateById } from '../../db/seed.repository.ts';

/** Status ids from Scheduled onwards that have a visit date (cancelled and on hold left alone). */
const VISITED = [5, 6, 7, 8, 9];

const STAFF_INTERNAL = [
  'Landlord approved spend up to £250 by phone.',
  'Chased contractor for an ETA, no answer yet.',
  'Second report at this address in three months; check for a recurring fault.',
  'Landlord asked to be copied on the invoice.',
  'Tenant vulnerable (elderly); priority kept at urgent.',
  'Quote looks high, asked for a second one.',
];
const STAFF_TENANT = [
  'We have booked an engineer; they will call ahead on the day.',
  'Please make sure someone is home to give access during the slot.',
  'The part is on order; we will confirm a new date as soon as it arrives.',
];
const STAFF_CONTRACTOR = [
  'Key safe by the front door, code shared by phone.',
  'Tenant works nights: please ring before knocking.',
  'Please send photos of the work once finished.',
];
const STAFF_BOTH = [
  'Visit confirmed for the booked slot.',
  'Access arranged with the tenant for the morning.',
];
const TENANT = [
  'Tenant reports water coming through the light fitting in the kitchen.',
  'The boiler has stopped again this morning, no hot water.',
  'Thanks, the engineer was very helpful.',
  'Can the visit be in the afternoon instead?',
];
const CONTRACTOR = [
  'Contractor attended, replaced the diverter valve. Boiler tested and working.',
  'Attended, need to return with a replacement part (ordered).',
  'No access on arrival, card left.',
  'Work complete, area cleaned, tenant signed off.',
];
const PHOTO_CAPTIONS = ['Damp patch above the window', 'Leak under the kitchen sink', 'Boiler pressure gauge', 'Repair completed'];
const DOC_NAMES = ['Gas safety certificate', 'Contractor quote', 'Landlord approval', 'Job sheet'];

/** Adds calendar dates, notes and files to the demo jobs. */
export async function jobFilesStep(ctx: DemoContext): Promise<void> {
  const { trx, rng, now } = ctx;
  const jobs = await jobsForNotesAndFiles(trx);
  if (jobs.length === 0) {
    ctx.log('demo: no jobs yet, skipping notes, files and calendar');
    return;
  }
  const slots = await activeTimeRangeIds(trx);

  // Calendar: dates and slots for visited jobs, a few upcoming visits.
  const today = londonDate(now);
  let upcoming = 0;
  for (const job of jobs) {
    if (!VISITED.includes(job.status_id)) continue;
    const set: { scheduled_for?: Date; time_range_id?: number } = {};
    if (job.scheduled_for === null) {
      const created = new Date(job.created_at);
      const date =
        job.status_id === 5 && rng.chance(0.6)
          ? addDays(today, rng.int(1, 28))
          : londonDate(new Date(Math.min(now.getTime() - DAY_MS, created.getTime() + rng.int(1, 10) * DAY_MS)));
      set.scheduled_for = londonToUtc(date);
      job.scheduled_for = set.scheduled_for;
    }
    if (job.time_range_id === null && slots.length > 0 && rng.chance(0.85)) set.time_range_id = rng.pick(slots);
    if (job.status_id === 5 && new Date(job.scheduled_for!).getTime() > now.getTime()) upcoming += 1;
    if (Object.keys(set).length > 0) await updateById(trx, 'jobs', job.id, set);
  }
  for (const job of jobs.filter((j) => j.status_id === 5)) {
    if (upcoming >= 12) break;
    if (new Date(job.scheduled_for!).getTime() > now.getTime()) continue;
    const date = londonToUtc(addDays(today, rng.int(1, 21)));
    await updateById(trx, 'jobs', job.id, { scheduled_for: date });
    upcoming += 1;
  }

  // Who writes: staff per agency, tenant and contractor accounts by their record.
  const users = await activeUsersWithRole(trx);
  const staffOf = (agencyId: number) => users.filter((u) => u.agency_id === agencyId && ['admin', 'agent'].includes(u.code)).map((u) => u.id);
  const tenantUser = (tenantId: number | null) => users.find((u) => tenantId !== null && u.tenant_id === tenantId)?.id;
  const contractorUser = (contractorId: number | null) => users.find((u) => contractorId !== null && u.contractor_id === contractorId)?.id;

  const noteRows: Array<{ uuid: string; job_id: number; author_user_id: number; body: string; visibility: 'internal' | 'tenant' | 'contractor' | 'both'; created_at: Date; updated_at: Date }> = [];
  const note = (jobId: number, author: number, body: string, visibility: (typeof noteRows)[number]['visibility'], when: Date) =>
    noteRows.push({ uuid: ctx.uuid(), job_id: jobId, author_user_id: author, body, visibility, created_at: when, updated_at: when });
  let files = 0;
  for (const job of jobs) {
    const staff = staffOf(job.agency_id);
    const created = new Date(job.created_at).getTime();
    const span = Math.max(60_000, now.getTime() - created);
    const at = () => new Date(created + Math.floor(rng.next() * span));
    if (staff.length > 0 && rng.chance(0.7)) {
      const count = rng.int(1, 4);
      for (let i = 0; i < count; i += 1) {
        const kind = rng.pick(['internal', 'internal', 'tenant', 'contractor', 'both'] as const);
        const pool = kind === 'internal' ? STAFF_INTERNAL : kind === 'tenant' ? STAFF_TENANT : kind === 'contractor' ? STAFF_CONTRACTOR : STAFF_BOTH;
        note(job.id, rng.pick(staff), rng.pick(pool), kind, at());
      }
    }
    const tenant = tenantUser(job.tenant_id);
    if (tenant !== undefined && rng.chance(0.5)) {
      note(job.id, tenant, rng.pick(TENANT), 'tenant', at());
    }
    const contractor = contractorUser(job.contractor_id);
    if (contractor !== undefined && job.status_id >= 6 && rng.chance(0.6)) {
      note(job.id, contractor, rng.pick(CONTRACTOR), 'contractor', at());
    }

    // A few photos and documents (bytes through the file store).
    if (ctx.files && staff.length > 0 && files < 40 && rng.chance(0.06)) {
      const colour: [number, number, number] = [rng.int(40, 220), rng.int(40, 220), rng.int(40, 220)];
      const photo = rng.chance(0.5)
        ? { data: pngBytes(16, 12, colour), mime: 'image/png', ext: 'png' }
        : { data: jpegBytes(16, 16, colour), mime: 'image/jpeg', ext: 'jpg' };
      const caption = rng.pick(PHOTO_CAPTIONS);
      const doc = rng.pick(DOC_NAMES);
      const uploads = [
        { kind: 'photo' as const, ...photo, name: `${caption.toLowerCase().replace(/\s+/g, '-')}.${photo.ext}`, description: caption, internal: false },
        ...(rng.chance(0.5)
          ? [{ kind: 'document' as const, data: pdfBytes(`${doc}: ${job.title}`), mime: 'application/pdf', ext: 'pdf', name: `${doc}.pdf`, description: doc, internal: doc === 'Landlord approval' }]
          : []),
      ];
      for (const u of uploads) {
        const stored = await ctx.files.put(u.data, u.ext);
        await insertRows(trx, 'job_files', [{
          uuid: ctx.uuid(), job_id: job.id, agency_id: job.agency_id, kind: u.kind, storage_key: stored.key, original_filename: u.name,
          mime: u.mime, ext: u.ext, size_bytes: stored.size, sha256: stored.sha256, description: u.description, internal: u.internal,
          uploaded_by_user_id: rng.pick(staff), created_at: at(),
        }]);
        files += 1;
      }
    }
  }
  for (let i = 0; i < noteRows.length; i += 500) await insertRows(trx, 'job_notes', noteRows.slice(i, i + 500));
  ctx.log(`demo: ${noteRows.length} case notes, ${files} photos and documents, ${upcoming} upcoming visits`);
}
