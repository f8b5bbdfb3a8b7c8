/** Schemas of GET /api/dashboard (docs/insight.md "Dashboard"). */
import { Type, type Static } from 'typebox';

const Count = Type.Integer({ minimum: 0 });

export const DashboardData = Type.Object(
  {
    scope: Type.String({ description: 'whose jobs are counted: all, agency, branch, contractor or tenant' }),
    generated_at: Type.String({ format: 'date-time' }),
    today: Type.String({ format: 'date', description: 'the London date the day windows refer to' }),
    open_jobs: Type.Object({
      total: Count,
      by_status: Type.Array(Type.Object({ status_id: Type.Integer(), code: Type.String(), name: Type.String(), count: Count })),
      by_priority: Type.Array(Type.Object({ priority: Type.Integer({ description: '1 emergency to 5 planned' }), count: Count })),
    }, { description: 'jobs in a status with is_open (every status but closed and cancelled)' }),
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
    sla: Type.Optional(Type.Object({ at_risk: Count, breached: Count }, { description: 'absent until the SLA engine provides it' })),
    unpaid_invoices: Type.Optional(Type.Object({ count: Count, total_pence: Count }, { description: 'absent until the money module provides it' })),
  },
  { additionalProperties: false },
);
export type DashboardDto = Static<typeof DashboardData>;
