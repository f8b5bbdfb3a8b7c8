/**
 * Every migration, in the order applied (by name). Add a new file as
 * YYYY_MM_DD_NNNN_what.ts and list it here; a released migration is never edited.
 * (A static list rather than a folder scan, so Node (type stripping), vitest and the compiled build all load them.)
 */
import type { Migration } from 'kysely/migration';
import * as m0001 from './2026_11_21_0001_foundation.ts';
import * as m0100 from './2026_11_21_0100_areas.ts';
import * as m0200 from './2026_11_21_0200_jobs_core.ts';
import * as m0300 from './2026_11_21_0300_job_files_calendar.ts';
import * as m0400 from './2026_11_21_0400_users.ts';
import * as m0500 from './2026_11_21_0500_administration.ts';
import * as m0600 from './2026_11_21_0600_people.ts';
import * as m0700 from './2026_11_21_0700_production_indexes.ts';
import * as m1000 from './2026_11_23_0000_outbox.ts';
import * as m0660 from './2026_11_23_0660_webhooks.ts';
import * as m1400 from './2026_11_23_0400_sla.ts';
import * as m1700 from './2026_11_23_0700_insight.ts';
import * as m1600 from './2026_11_23_0600_messaging.ts';
import * as m1100 from './2026_11_23_0100_hardening.ts';
import * as m1500 from './2026_11_23_0500_money.ts';
import * as m1200 from './2026_11_23_0200_platform.ts';
import * as m1800 from './2026_11_23_0800_insight_figures.ts';
import * as m2100 from './2026_11_26_0100_login_link.ts';
import * as m2700 from './2026_11_26_0700_sla_office_hours.ts';
import * as m2710 from './2026_11_26_0710_compliance.ts';
import * as m2600800 from './2026_11_26_0800_backfills.ts';
import * as m2600 from './2026_11_26_0600_landlords.ts';
import * as m2605 from './2026_11_26_0500_agencies.ts';
import * as m2600_02 from './2026_11_26_0200_idempotency_requests.ts';
import * as m2613 from './2026_11_26_1300_one_source_of_truth.ts';
import * as m2614 from './2026_11_26_1400_money_documents.ts';
import * as m2616 from './2026_11_26_1600_hazards.ts';
import * as m2617 from './2026_11_26_1700_tenant_reporting.ts';
import * as m2611 from './2026_11_26_1100_traceparent.ts';
import * as m2613_10 from './2026_11_26_1310_landlord_external_ref.ts';
import * as m261500 from './2026_11_26_1500_works_orders.ts';
import * as m261900 from './2026_11_26_1900_visit_booking.ts';
import * as m262000 from './2026_11_26_2000_conversations.ts';
import * as m262100 from './2026_11_26_2100_live_events.ts';
import * as m261800 from './2026_11_26_1800_planned_maintenance.ts';
import * as m290100 from './2026_11_29_0100_csrf_session_index.ts';
import * as m061400 from './2026_12_06_1400_provider_callbacks.ts';
import * as m061500 from './2026_12_06_1500_notifications_arrive.ts';
import * as m061600 from './2026_12_06_1600_uk_addresses.ts';
import * as m061700 from './2026_12_06_1700_money_treatment.ts';
import * as m061900 from './2026_12_06_1900_search_indexes.ts';
import * as m070200 from './2026_12_07_0200_second_factors.ts';
import * as m061860 from './2026_12_06_1860_hazard_awareness.ts';
import * as m070050 from './2026_12_07_0050_compliance_by_regulation.ts';
import * as m070100 from './2026_12_07_0100_gdpr_retention.ts';
import * as m070300 from './2026_12_07_0300_single_sign_on.ts';
import * as m080400 from './2026_12_08_0400_totp_secrets_encrypted.ts';
import * as m080300 from './2026_12_08_0300_history_partitions.ts';
import * as m080500 from './2026_12_08_0500_tenancies_and_restricted_vat_particulars.ts';
import * as m090200 from './2026_12_09_0200_heavy_work.ts';

export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': m0001,
  // Recorded under this name in every database migrated so far; the file is 2026_11_21_0100_areas.ts
  // (SLA rules, devices, time ranges, appearance). The key must never change, or Kysely would
  // re-run the migration on existing databases. New keys match their file names.
  '2026_11_21_0100_issue3': m0100,
  '2026_11_21_0200_jobs_core': m0200,
  '2026_11_21_0300_job_files_calendar': m0300,
  '2026_11_21_0400_users': m0400,
  '2026_11_21_0500_administration': m0500,
  '2026_11_21_0600_people': m0600,
  '2026_11_21_0700_production_indexes': m0700,
  '2026_11_23_0000_outbox': m1000,
  '2026_11_23_0660_webhooks': m0660,
  '2026_11_23_0400_sla': m1400,
  '2026_11_23_0700_insight': m1700,
  '2026_11_23_0600_messaging': m1600,
  '2026_11_23_0100_hardening': m1100,
  '2026_11_23_0500_money': m1500,
  '2026_11_23_0200_platform': m1200,
  '2026_11_23_0800_insight_figures': m1800,
  '2026_11_26_0100_login_link': m2100,
  '2026_11_26_0700_sla_office_hours': m2700,
  '2026_11_26_0710_compliance': m2710,
  '2026_11_26_0800_backfills': m2600800,
  '2026_11_26_0600_landlords': m2600,
  '2026_11_26_0500_agencies': m2605,
  '2026_11_26_0200_idempotency_requests': m2600_02,
  '2026_11_26_1300_one_source_of_truth': m2613,
  '2026_11_26_1400_money_documents': m2614,
  '2026_11_26_1600_hazards': m2616,
  '2026_11_26_1700_tenant_reporting': m2617,
  '2026_11_26_1100_traceparent': m2611,
  '2026_11_26_1310_landlord_external_ref': m2613_10,
  '2026_11_26_1500_works_orders': m261500,
  '2026_11_26_1900_visit_booking': m261900,
  '2026_11_26_2000_conversations': m262000,
  '2026_11_26_2100_live_events': m262100,
  '2026_11_26_1800_planned_maintenance': m261800,
  '2026_11_29_0100_csrf_session_index': m290100,
  '2026_12_06_1400_provider_callbacks': m061400,
  '2026_12_06_1500_notifications_arrive': m061500,
  '2026_12_06_1600_uk_addresses': m061600,
  '2026_12_06_1700_money_treatment': m061700,
  '2026_12_06_1900_search_indexes': m061900,
  '2026_12_07_0200_second_factors': m070200,
  '2026_12_06_1860_hazard_awareness': m061860,
  '2026_12_07_0050_compliance_by_regulation': m070050,
  '2026_12_07_0100_gdpr_retention': m070100,
  '2026_12_07_0300_single_sign_on': m070300,
  '2026_12_08_0400_totp_secrets_encrypted': m080400,
  '2026_12_08_0300_history_partitions': m080300,
  '2026_12_08_0500_tenancies_and_restricted_vat_particulars': m080500,
  '2026_12_09_0200_heavy_work': m090200,
};
