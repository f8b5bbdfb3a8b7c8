// Statutory clocks as the Hazards in Social Housing (Prescribed Requirements) (England)
// Regulations 2025 (SI 2025/1042) define them (docs/compliance.md "Hazards and statutory clocks"):
// the reason a person gives when the moment of awareness is not the tenant's report
// (job_hazards.awareness_reason); when each milestone was recorded next to when it happened
// (*_recorded_at; only the happened time decides a clock); supplementary preventative work
// ("further works", reg. 13) with its own start clock (further_works_start, 5 working days, or
// 12 weeks with the reason beginning sooner was not reasonably practicable); the written summary's
// delivery (by e-mail or SMS, or a letter posted by staff: the duty is met only then), its second
// channel, and the scope the clocks were planned under; the scope of each property
// (hazard_property_scopes: social housing or private rented, and its nation) and the agency's
// policy of applying the timescales to private renting (agencies.hazard_private_rented_policy).
// Existing agencies with a hazard keep their clocks running: their policy is set on.
// Expand: nullable or defaulted columns, a new table, a wider check.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table agencies add column hazard_private_rented_policy boolean not null default false;
    update agencies set hazard_private_rented_policy = true where id in (select agency_id from job_hazards);
    alter table job_hazards add column awareness_reason text;
    alter table job_hazards add column scope text not null default 'social'
      check (scope in ('social', 'private_rented_policy', 'not_covered'));
    alter table job_hazards add column further_works_required boolean not null default true;
    alter table job_hazards add column further_works_reason text;
    alter table job_hazards add column further_works_started_at timestamptz;
    alter table job_hazards add column made_safe_recorded_at timestamptz;
    alter table job_hazards add column investigated_recorded_at timestamptz;
    alter table job_hazards add column works_started_recorded_at timestamptz;
    alter table job_hazards add column further_works_started_recorded_at timestamptz;
    alter table job_hazards add column works_completed_recorded_at timestamptz;
    alter table job_hazards add column summary_delivered_at timestamptz;
    alter table job_hazards add column summary_delivered_recorded_at timestamptz;
    alter table job_hazards add column summary_delivery_method text check (summary_delivery_method in ('email', 'sms', 'post'));
    alter table job_hazards add column summary_fallback text check (summary_fallback in ('sms', 'letter'));
    alter table job_hazards add column summary_fallback_at timestamptz;
    alter table job_hazards add column summary_posted_by_user_id integer;
    alter table job_hazards add column summary_event_id uuid;
    update job_hazards set summary_delivered_at = summary_sent_at, summary_delivered_recorded_at = summary_sent_at, summary_delivery_method = 'email'
      where summary_sent_at is not null;
    alter table hazard_clocks drop constraint if exists hazard_clocks_kind_check;
    alter table hazard_clocks add constraint hazard_clocks_kind_check
      check (kind in ('make_safe', 'investigate', 'summary', 'works_start', 'further_works_start', 'works_complete'));
    create table hazard_property_scopes (
      address_id integer primary key references addresses(id),
      agency_id integer not null references agencies(id),
      tenure text not null check (tenure in ('social', 'private_rented')),
      nation text check (nation in ('england', 'wales', 'scotland', 'northern_ireland')),
      updated_by_user_id integer,
      updated_at timestamptz not null
    );
    create index hazard_property_scopes_agency on hazard_property_scopes (agency_id);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('hazard_property_scopes').ifExists().execute();
  for (const c of [
    'awareness_reason', 'scope', 'further_works_required', 'further_works_reason', 'further_works_started_at', 'made_safe_recorded_at', 'investigated_recorded_at',
    'works_started_recorded_at', 'further_works_started_recorded_at', 'works_completed_recorded_at', 'summary_delivered_at', 'summary_delivered_recorded_at',
    'summary_delivery_method', 'summary_fallback', 'summary_fallback_at', 'summary_posted_by_user_id', 'summary_event_id',
  ]) await db.schema.alterTable('job_hazards').dropColumn(c).execute();
  await db.schema.alterTable('agencies').dropColumn('hazard_private_rented_policy').execute();
}
