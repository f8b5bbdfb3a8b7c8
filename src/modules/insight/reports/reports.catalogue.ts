/**
 * The named reports (docs/insight.md "Reports"): each has its filters (those of the matching list
 * endpoint), its columns and an async iterator of rows over what the caller may open. Adding a
 * report is one entry here; the routes, downloads and subscriptions pick it up. A report with a
 * `permission` also needs that key (besides api.reports.view), the one of its matching endpoint.
 */
import { Type, type TSchema } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { invalidParam } from '../../../core/errors.ts';
import { IsoDate } from '../../../http/schema-primitives.ts';
import { readAgency } from '../../../core/agency-scope.ts';
import { addDays, londonToUtc } from '../../../lib/london-time.ts';
import { listExpiring } from '../../people/contractors/index.ts';
import { jobScope } from '../../jobs/jobs/index.ts';
import { ListJobsQuery, type ListJobsInput } from '../../jobs/jobs/index.ts';
import { visibleJobPages } from '../../jobs/jobs/index.ts';
import { ComplianceQuery, complianceReport, type ComplianceInput } from '../../jobs/sla-reports/index.ts';
import { listRegister, RegisterQuery } from '../../jobs/compliance/index.ts';
import * as repo from './reports.repository.ts';
import type { Cell, Column } from './reports.render.ts';

export type Row = Record<string, Cell>;

export interface ReportDef {
  name: string;
  title: string;
  description: string;
  /** The filters (query parameters besides `format`). */
  filters: Record<string, TSchema>;
  /** A permission key needed besides api.reports.view (that of the matching endpoint), if any. */
  permission?: string;
  columns: Column[];
  /**
   * True when the rows only read and may be a moment old: they are then read on the read replica
   * when there is one (docs/operations.md "Read replicas"). Unset for a report that writes before
   * it reads (the compliance register derives its items first): it runs on the primary.
   */
  mayLag?: true;
  rows(deps: AppDeps, auth: AuthContext, filters: Record<string, unknown>): AsyncGenerator<Row>;
}

/** Rows fetched per page when a report walks a list endpoint's service. */
export const PAGE = 500;
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const col = (key: string, header = key) => ({ key, header });

const { limit: _l, offset: _o, ...jobFilters } = ListJobsQuery.properties;

/** Defaults of a date-range report: the last 90 days to today. */
function range(deps: AppDeps, f: Record<string, unknown>) {
  const today = deps.clock.now().toISOString().slice(0, 10);
  const toDate = (f.to_date as string | undefined) ?? today;
  const fromDate = (f.from_date as string | undefined) ?? addDays(toDate, -89);
  if (fromDate > toDate) throw invalidParam('to_date');
  return { from: londonToUtc(fromDate), to: londonToUtc(addDays(toDate, 1)) };
}

const { group_by: groupBy } = ComplianceQuery.properties;

/** The SLA compliance entry: GET /api/sla/compliance over every page, dates defaulting to the last 90 days. */
const slaCompliance: ReportDef = {
  name: 'sla-compliance',
  mayLag: true,
  title: 'SLA compliance',
  description: 'SLA clocks started between from_date and to_date (UTC dates, inclusive; default the last 90 days to today) per branch (default), contractor, job_type or priority: met, breached, still running, compliance %, median minutes to respond and how the rules of the group count time (calendars), as GET /api/sla/compliance (all pages).',
  permission: 'api.sla.compliance.view',
  filters: {
    from_date: Type.Optional(IsoDate('clocks started on or after this UTC date (default 89 days before to_date)')),
    to_date: Type.Optional(IsoDate('clocks started on or before this UTC date (default today)')),
    group_by: groupBy,
  },
  columns: [
    col('group_by'), col('key'), col('name'), col('met'), col('breached'), col('running'), col('compliance_percent'), col('median_minutes_to_respond'), col('calendars'),
  ],
  async *rows(deps, auth, f) {
    const toDate = (f.to_date as string | undefined) ?? deps.clock.now().toISOString().slice(0, 10);
    const fromDate = (f.from_date as string | undefined) ?? addDays(toDate, -89);
    const q = { from_date: fromDate, to_date: toDate, group_by: f.group_by as ComplianceInput['group_by'] };
    for (let offset = 0; ; offset += PAGE) {
      const { rows } = await complianceReport(deps, auth, { ...q, limit: PAGE, offset });
      for (const r of rows) yield r;
      if (rows.length < PAGE) return;
    }
  },
};

const { limit: _cl, offset: _co, ...registerFilters } = RegisterQuery.properties;

/** The compliance register: GET /api/compliance over every page (docs/compliance.md). */
const complianceRegister: ReportDef = {
  name: 'compliance-register',
  title: 'Compliance register',
  description: 'Every compliance item of the agency\'s properties with its status today (valid, due_soon, expired, missing, non_compliant), latest certificate and issuer, as GET /api/compliance (all pages) with its filters.',
  permission: 'api.compliance.view',
  filters: registerFilters,
  columns: [
    col('status'), col('address'), col('branch_name'), col('type_name'), col('issued_on'), col('expires_on'), col('contractor_name'),
    col('required_document'), col('uuid'), col('address_uuid'), col('certificate_uuid'),
  ],
  async *rows(deps, auth, f) {
    for (let offset = 0; ; offset += PAGE) {
      const { rows } = await listRegister(deps, auth, { ...(f as Record<string, never>), limit: PAGE, offset });
      for (const r of rows) {
        yield {
          status: r.status, address: r.address, branch_name: r.branch_name, type_name: r.type_name, issued_on: r.issued_on, expires_on: r.expires_on,
          contractor_name: r.contractor_name, required_document: r.required_document, uuid: r.uuid, address_uuid: r.address_uuid, certificate_uuid: r.certificate_uuid,
        };
      }
      if (rows.length < PAGE) return;
    }
  },
};

export const REPORTS: ReportDef[] = [
  {
    name: 'jobs-register',
    mayLag: true,
    title: 'Jobs register',
    description: 'Every job the caller may see with the filters and order of GET /api/jobs/manage (all pages).',
    filters: jobFilters,
    columns: [
      col('reference'), col('title'), col('status'), col('priority'), col('job_type'), col('trade'), col('branch_name'),
      col('postcode'), col('tenant_name'), col('contractor_name'), col('created_at'), col('scheduled_for'), col('completed_at'),
      col('estimated_cost_pence'), col('agreed_cost_pence'), col('uuid'),
    ],
    // Every matching id in order first, then the jobs by id (visibleJobPages): each job read once.
    async *rows(deps, auth, f) {
      for await (const rows of visibleJobPages(deps, auth, f as ListJobsInput, PAGE)) {
        for (const j of rows) {
          yield {
            reference: j.reference, title: j.title, status: j.status, priority: j.priority, job_type: j.job_type,
            trade: j.trade ?? null, branch_name: j.branch_name, postcode: j.postcode ?? null, tenant_name: j.tenant_name ?? null,
            contractor_name: j.contractor_name ?? null, created_at: iso(j.created_at), scheduled_for: iso(j.scheduled_for),
            completed_at: iso(j.completed_at), estimated_cost_pence: j.estimated_cost_pence ?? null,
            agreed_cost_pence: j.agreed_cost_pence ?? null, uuid: j.uuid,
          };
        }
      }
    },
  },
  {
    name: 'contractor-performance',
    mayLag: true,
    title: 'Contractor performance',
    description: 'Per contractor, its jobs created in the range (default the last 90 days): assigned, completed, cancelled, median seconds to complete, first-time fix rate, agreed cost of completed jobs (pence).',
    filters: { from_date: Type.Optional(IsoDate('first London date (default 89 days before to_date)')), to_date: Type.Optional(IsoDate('last London date (default today)')) },
    columns: [
      col('contractor_uuid'), col('company_name'), col('jobs_assigned'), col('completed'), col('cancelled'),
      col('median_complete_s'), col('first_time_fix_rate'), col('agreed_total_pence'),
    ],
    async *rows(deps, auth, f) {
      const { from, to } = range(deps, f);
      for (const r of await repo.contractorPerformance(deps.db, jobScope(auth), readAgency(auth), from, to)) {
        yield {
          contractor_uuid: r.uuid, company_name: r.company_name, jobs_assigned: r.jobs_assigned, completed: r.completed,
          cancelled: r.cancelled, median_complete_s: r.median_complete_s === null ? null : Math.round(Number(r.median_complete_s)),
          first_time_fix_rate: r.completed === 0 ? null : r.first_time_fixed / r.completed, agreed_total_pence: r.agreed_total_pence,
        };
      }
    },
  },
  slaCompliance,
  {
    name: 'tenant-jobs-per-property',
    mayLag: true,
    title: 'Tenant jobs per property',
    description: 'Per property with jobs the caller may see: its tenants, jobs in total, open jobs and when the latest was reported.',
    filters: {},
    columns: [col('address_uuid'), col('line1'), col('town'), col('postcode'), col('tenants'), col('jobs_total'), col('jobs_open'), col('last_job_at')],
    async *rows(deps, auth) {
      for (const r of await repo.tenantJobsPerProperty(deps.db, jobScope(auth))) {
        yield { address_uuid: r.uuid, line1: r.line1, town: r.town, postcode: r.postcode, tenants: r.tenants, jobs_total: r.jobs_total, jobs_open: r.jobs_open, last_job_at: iso(r.last_job_at) };
      }
    },
  },
  {
    name: 'certificates-register',
    mayLag: true,
    title: 'Certificates register',
    description: 'Certificates of the agency expiring from today through today + days, as GET /api/contractors/certifications/expiring (all pages).',
    filters: { days: Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'window in days from today' }) },
    columns: [col('company_name'), col('cert_type'), col('cert_name'), col('reference'), col('issued_on'), col('expires_on'), col('status'), col('days_left'), col('uuid')],
    async *rows(deps, auth, f) {
      for (let offset = 0; ; offset += PAGE) {
        const { rows } = await listExpiring(deps, auth, { days: (f.days as number | undefined) ?? 30, limit: PAGE, offset });
        for (const c of rows) {
          yield { company_name: c.company_name, cert_type: c.cert_type, cert_name: c.cert_name, reference: c.reference, issued_on: c.issued_on, expires_on: c.expires_on, status: c.status, days_left: c.days_left, uuid: c.uuid };
        }
        if (rows.length < PAGE) return;
      }
    },
  },
  complianceRegister,
];

/** Whether the caller holds the report's extra permission (if it has one). */
export function mayDownload(def: ReportDef, auth: AuthContext): boolean {
  return def.permission === undefined || auth.permissions.has(def.permission);
}

/** A report by name, or undefined. */
export function findReport(name: string): ReportDef | undefined {
  return REPORTS.find((r) => r.name === name);
}
