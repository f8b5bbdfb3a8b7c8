/**
 * The job's visit plan as the job page's details read it (docs/tenant-reporting.md "Booking the
 * visit"): its type and its read, kept apart from the visit panel and the signed link page
 * (visit.tsx) so that the job page's first view, which shows the booked visit in its details, does
 * not download the panel's forms (docs/console.md "How it is built and served").
 */
import { api } from '../api.ts';
import { useLoad } from '../ui.tsx';

/** A stretch of time with its label in London time. */
export interface Span { starts_at: string; ends_at: string; label: string }
/** The job's visit plan as GET /api/jobs/{uuid}/visit gives it: the tenant's windows, the booked visit, the contractor's free slots, the missed visits and the booking rules. */
export interface Plan {
  job_uuid: string; reference: string; title: string; status_id: number; status: string; contractor_name: string | null;
  windows: (Span & { uuid: string; given_by: string })[];
  visit: (Span & { uuid: string; booked_by: string; reminder_sent_at: string | null }) | null;
  free_slots: Span[];
  missed: (Span & { uuid: string; missed_by: string; note: string | null; missed_at: string })[];
  rules: { max_windows: number; horizon_days: number; min_minutes: number; max_hours: number };
}
/** A span as the booking endpoints take it (ISO instants). */
export type SpanInput = { starts_at: string; ends_at: string };

/**
 * The job's visit plan (GET /api/jobs/{uuid}/visit), under the key the job page's details share,
 * so the page reads it once.
 */
export function useVisitPlan(jobUuid: string) {
  return useLoad(['jobs', jobUuid, 'visit'], async () => (await api.GET('/api/jobs/{uuid}/visit', { params: { path: { uuid: jobUuid } } })).data!.data as Plan);
}

