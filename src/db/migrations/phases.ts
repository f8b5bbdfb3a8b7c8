/**
 * The one place that says, for every migration, whether it is safe while older instances still
 * serve (`expand`: new tables, new nullable or defaulted columns, new indexes, new rows) or needs
 * every instance upgraded first (`contract`: dropping or renaming what the previous release reads,
 * a new NOT NULL column without a default, a tighter constraint). `caretaker migrate --plan` prints
 * it; a test checks every migration of src/db/migrations/index.ts is listed here
 * (docs/operations.md "Upgrades"). A migration that adds derived state names the backfill it asks
 * for (src/modules/platform/backfills), which the background worker runs on the queue.
 */
export type MigrationPhase = 'expand' | 'contract';

export interface MigrationClass {
  phase: MigrationPhase;
  /** One line: what it changes, from an operator's point of view. */
  summary: string;
  /** The backfill this migration asks for, run by the worker after it (src/modules/platform/backfills). */
  backfill?: string;
}

export const MIGRATION_PHASES: Readonly<Record<string, MigrationClass>> = {
  '2026_11_21_0001_foundation': { phase: 'expand', summary: 'the first schema: agencies, users, jobs, activity log' },
  '2026_11_21_0100_issue3': { phase: 'expand', summary: 'SLA rules, devices, time ranges, appearance tables' },
  '2026_11_21_0200_jobs_core': { phase: 'expand', summary: 'job status history, idempotency keys, nullable job columns, indexes' },
  '2026_11_21_0300_job_files_calendar': { phase: 'expand', summary: 'job files and calendar feed keys' },
  '2026_11_21_0400_users': { phase: 'expand', summary: 'user tokens, user columns with defaults' },
  '2026_11_21_0500_administration': { phase: 'expand', summary: 'custom roles index, rate-limit overrides' },
  '2026_11_21_0600_people': {
    phase: 'expand',
    summary: 'contractor and tenant columns with defaults; trade codes unique per agency (a looser constraint)',
  },
  '2026_11_21_0700_production_indexes': { phase: 'expand', summary: 'indexes only' },
  '2026_11_23_0000_outbox': { phase: 'expand', summary: 'the outbox and handler runs' },
  '2026_11_23_0100_hardening': { phase: 'expand', summary: 'security blacklist' },
  '2026_11_23_0200_platform': { phase: 'expand', summary: 'certificate expiry warnings' },
  '2026_11_23_0400_sla': { phase: 'expand', summary: 'SLA clocks table, agency SLA settings with defaults' },
  '2026_11_23_0500_money': { phase: 'expand', summary: 'quotes, invoices, payments, price list' },
  '2026_11_23_0600_messaging': { phase: 'expand', summary: 'templates, deliveries, preferences, notices' },
  '2026_11_23_0660_webhooks': { phase: 'expand', summary: 'webhook endpoints and deliveries' },
  '2026_11_23_0700_insight': { phase: 'expand', summary: 'report subscriptions, search indexes' },
  '2026_11_23_0800_insight_figures': { phase: 'expand', summary: 'indexes for the figures' },
  '2026_11_26_0100_login_link': { phase: 'expand', summary: 'auth_tokens.login_id (nullable) linking a login\'s bearer token and session' },
  '2026_11_26_0200_idempotency_requests': { phase: 'expand', summary: 'idempotency_keys.route, response_text and response_headers (nullable): every write honours Idempotency-Key' },
  '2026_11_26_0500_agencies': { phase: 'expand', summary: 'agency profile and suspension columns (nullable), external references, import runs (new tables)' },
  '2026_11_26_0600_landlords': { phase: 'expand', summary: 'landlords, ownership shares, spend limits, approval requests and their signed links (new tables)' },
  '2026_11_26_0700_sla_office_hours': { phase: 'expand', summary: 'two more SLA counting modes (a looser check), response_hours (nullable), agency office hours' },
  '2026_11_26_0710_compliance': { phase: 'expand', summary: 'compliance item types, items and certificates (new tables, seeded per agency)' },
  '2026_11_26_1500_works_orders': { phase: 'expand', summary: 'works-order links, quote requests and invitations (new tables); users.landlord_id (nullable)' },
  '2026_11_26_0800_backfills': {
    phase: 'expand',
    summary: 'backfill bookkeeping; SLA clocks for every open job',
    backfill: 'sla.clocks',
  },
  '2026_11_26_1300_one_source_of_truth': {
    phase: 'expand',
    summary: 'office hours copied from agencies.office_hours into agency_office_hours, the landlord default limit into agencies.default_approval_limit_pence; old columns kept (deprecated), no longer read or written',
  },
  '2026_11_26_1400_money_documents': { phase: 'expand', summary: 'contractor address, invoice supply date and refund due (nullable/defaulted), recharge settings and landlord recharges (new tables)' },
  '2026_11_26_1700_tenant_reporting': {
    phase: 'expand',
    summary: 'triage flows and versions, tenant reports, on-call contacts, reporting settings, job merges, recalls and surveys (new tables)',
  },
  '2026_11_26_1100_traceparent': { phase: 'expand', summary: 'outbox.traceparent and webhook_deliveries.traceparent (nullable): jobs and webhook deliveries join the trace of their request' },
  '2026_11_26_1310_landlord_external_ref': { phase: 'expand', summary: 'landlords.external_ref (nullable) with a partial unique index: the key of the landlord import' },
  '2026_11_26_1600_hazards': { phase: 'expand', summary: 'job hazards, their statutory clocks and compliance expiry reminders (new tables); agencies.hazard_works_working_days (default 60), addresses.is_hmo (default false)' },
  '2026_11_26_1900_visit_booking': { phase: 'expand', summary: 'tenant availability windows, timed visits (booked, moved, missed and by whom, reminder sent) and tenant visit links (new tables)' },
  '2026_11_26_2000_conversations': { phase: 'expand', summary: 'job conversation threads, messages, attachments, read state and the notes view; the SMS log and opt-outs (new tables and a view)' },
  '2026_11_26_2100_live_events': { phase: 'expand', summary: 'a trigger announces each new outbox row on the channel caretaker_outbox (NOTIFY at commit) for the live updates; older instances do not listen' },
  '2026_11_26_1800_planned_maintenance': { phase: 'expand', summary: 'maintenance schedules and their occurrences (new tables); compliance_item_types.custom (default false) and retired_at (nullable)' },
  '2026_11_29_0100_csrf_session_index': { phase: 'expand', summary: 'an index of csrf_tokens by session (auth_token_id)' },
  '2026_12_06_1400_provider_callbacks': { phase: 'expand', summary: 'used provider callbacks (Mailgun tokens, STOP/START MessageSids), new tables' },
  '2026_12_06_1500_notifications_arrive': {
    phase: 'contract',
    summary: 'the delivery key becomes (event, message kind, recipient, channel): an older instance\'s ON CONFLICT names the old key; notification_preferences.mode (nullable) and notification digest items (new table); triggers announce session-ending changes on caretaker_auth',
  },
  '2026_12_06_1700_money_treatment': { phase: 'expand', summary: 'VAT treatment of recharged costs, supplier invoice dates, self-billing agreements, landlord ledger entries; invoices may be credited (a looser check)' },
  '2026_12_06_1600_uk_addresses': {
    phase: 'expand',
    summary: 'address parts (PAF: sub-building, building name and number, street, locality; nullable), buildings (new table), addresses.building_id and is_communal, agencies.postcode_lookup (default false)',
    backfill: 'addresses.parts',
  },
  '2026_12_06_1900_search_indexes': { phase: 'expand', summary: 'search: two IMMUTABLE text functions (caretaker_address_text, caretaker_building_text) and trigram indexes on them, on landlords.name and on the e-mails of landlords, tenants and contractors' },
  '2026_12_07_0200_second_factors': { phase: 'expand', summary: 'TOTP secrets, recovery codes, passkeys and sign-in challenges (new tables); agencies.require_second_factor (default false)' },
  '2026_12_06_1860_hazard_awareness': {
    phase: 'expand',
    summary: 'hazards: awareness reason, milestone recorded times, further works start clock, summary delivery and second channel, scope; hazard_property_scopes (new table); agencies.hazard_private_rented_policy (on for agencies that have a hazard)',
  },
  '2026_12_07_0050_compliance_by_regulation': {
    phase: 'expand',
    summary: 'compliance by regulation: addresses.gas_supply, storeys, combustion_rooms; buildings.has_lift; compliance_item_types.applies_to and regulation; compliance_items.derived; certificate EPC rating and exemption, EICR outcome and remedial works, tenant copy, alarms per storey and room',
  },
  '2026_12_07_0100_gdpr_retention': {
    phase: 'expand',
    summary: 'GDPR: gdpr_exemptions (an exemption per report item with its DPA 2018 ground), retention_periods (per agency and record kind), gdpr_retained (records an erasure restricted until their retention ends); three new tables',
  },
  '2026_12_07_0300_single_sign_on': { phase: 'expand', summary: 'single sign-on: agency_sso (one OpenID Connect provider per agency) and sso_states (pending sign-ins, single-use, expiring) (new tables)' },
  '2026_12_08_0400_totp_secrets_encrypted': {
    phase: 'expand',
    summary: 'no schema change: TOTP secrets are written encrypted; those stored before are encrypted by a backfill (older instances cannot read the new ones: upgrade every instance)',
    backfill: 'auth.totp-secrets',
  },
  '2026_12_08_0300_history_partitions': {
    phase: 'contract',
    summary: 'activity_log, job_status_history, outbox, message_deliveries and webhook_deliveries partitioned by month (the old table attached as one partition, no rows copied); keys include the time column, so the deliveries\' ON CONFLICT targets change; sms_messages.delivery_id loses its foreign key; history_archives (new table)',
  },
  '2026_12_08_0500_tenancies_and_restricted_vat_particulars': { phase: 'expand', summary: 'tenancies with dates and tenants, the documents served on them (tenancies, tenancy_tenants, tenancy_served_documents), and the restricted VAT particulars of erased landlords (landlord_restricted_particulars) (new tables)' },
  '2026_12_09_0200_heavy_work': { phase: 'expand', summary: 'the tickets of heavy work waiting for or holding an agency\'s slots (heavy_work) (new table)' },
};
