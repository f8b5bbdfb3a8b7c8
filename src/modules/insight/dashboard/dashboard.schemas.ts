/** Schemas of GET /api/dashboard (docs/insight.md "Dashboard"). */
import { Type, type Static } from 'typebox';
import { DateTime, IsoDate } from '../../../http/schema-primitives.ts';

const Count = Type.Integer({ minimum: 0 });

export const DashboardData = Type.Object(
  {
    scope: Type.String({ description: 'whose jobs are counted: all, agency, branch, contractor or tenant' }),
    generated_at: DateTime(),
    today: IsoDate('the London date the day windows refer to'),
    open_jobs: Type.Object({
      total: Count,
      by_status: Type.Array(Type.Object({ status_id: Type.Integer(), code: Type.String(), name: Type.String(), count: Count })),
      by_priority: Type.Array(Type.Object({ priority: Type.Integer({ description: '1 emergency to 5 planned' }), count: Count })),
    }, { description: 'jobs with work still to do: a status with is_open other than Completed and Invoiced (every status but completed, invoiced, closed and cancelled)' }),
    new_jobs: Type.Object({
      today: Count,
      this_week: Count,
    }, { description: 'jobs created since London midnight / since Monday 00:00 London' }),
    visits: Type.Object({
      overdue: Type.Integer({ minimum: 0, description: 'assigned or scheduled jobs whose scheduled_for has passed and that nobody attended' }),
      today: Count,
      tomorrow: Count,
    }),
    certificates_expiring_30d: Type.Optional(Type.Integer({
      minimum: 0,
      description: 'contractor certificates expiring today to 30 days on; absent for tenants, who cannot open certificates',
    })),
    sla: Type.Optional(Type.Object({
      at_risk: Type.Integer({ minimum: 0, description: 'open jobs whose most urgent SLA clock is at_risk' }),
      breached: Type.Integer({ minimum: 0, description: 'open jobs with a breached SLA clock' }),
    }, { description: 'from the SLA engine\'s stored clock states (docs/sla.md); each job counted once; absent for tenants' })),
    unpaid_invoices: Type.Optional(Type.Object({
      count: Type.Integer({ minimum: 0, description: 'issued, part-paid and overdue invoices (not drafts, not credit notes)' }),
      total_pence: Type.Integer({ minimum: 0, description: 'still owed on them: gross - paid - credited, pence' }),
      overdue_count: Type.Integer({ minimum: 0, description: 'of which overdue' }),
      overdue_pence: Type.Integer({ minimum: 0, description: 'owed on the overdue ones, pence' }),
    }, { description: 'invoices the caller may open (a contractor: its own); absent without api.invoices.view (tenants)' })),
    compliance: Type.Optional(Type.Object({
      valid: Count,
      due_soon: Count,
      expired: Count,
      missing: Count,
      non_compliant: Count,
    }, { description: 'compliance items of the agency\'s properties per status today (docs/compliance.md); absent for contractors and tenants' })),
  },
  { additionalProperties: false },
);
export type DashboardDto = Static<typeof DashboardData>;
