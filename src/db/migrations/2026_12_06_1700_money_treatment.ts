// Money an accountant signs off (docs/money.md "VAT treatment of recharged costs", "Invoices as
// HMRC reads them", "Statements"): the agency's VAT treatment of contractor costs passed on to
// landlords (disbursement or recharge, HMRC VAT Notice 700 section 25), fixed on each invoice at
// issue and on each recharge with its cost per VAT rate; the supplier's own invoice date; the
// self-billing agreements (VAT Notice 700/62) and the per-supplier series of self-billed invoices;
// a fully credited invoice's own status; the agency's payments to and from a landlord that a
// statement balances. Expand: new tables, nullable or defaulted columns, a looser check.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table money_settings add column vat_treatment text not null default 'recharge' check (vat_treatment in ('recharge', 'disbursement'));

    alter table invoices add column vat_treatment text not null default 'recharge' check (vat_treatment in ('recharge', 'disbursement'));
    alter table invoices add column supplier_invoice_date date;
    alter table invoices add column self_billing_number integer;
    alter table invoices drop constraint if exists invoices_status_check;
    alter table invoices add constraint invoices_status_check check (status in ('draft', 'issued', 'part_paid', 'paid', 'overdue', 'void', 'credited'));

    alter table landlord_recharges add column vat_treatment text not null default 'disbursement' check (vat_treatment in ('recharge', 'disbursement'));
    alter table landlord_recharges add column cost_lines jsonb;

    create table self_billing_agreements (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      contractor_id integer not null references contractors(id),
      starts_on date not null,
      ends_on date not null,
      review_on date not null,
      vat_number_checked_on date,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (contractor_id),
      check (ends_on >= starts_on)
    );

    create table landlord_ledger_entries (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      landlord_id integer not null references landlords(id),
      kind text not null check (kind in ('payment_from_landlord', 'payment_to_landlord')),
      entry_date date not null,
      amount_pence integer not null check (amount_pence > 0),
      reference text,
      description text,
      created_by_user_id integer references users(id),
      created_at timestamptz not null
    );
    create index landlord_ledger_entries_landlord_date on landlord_ledger_entries (landlord_id, entry_date);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop table if exists landlord_ledger_entries;
    drop table if exists self_billing_agreements;
    alter table landlord_recharges drop column if exists cost_lines;
    alter table landlord_recharges drop column if exists vat_treatment;
    update invoices set status = 'paid' where status = 'credited';
    alter table invoices drop constraint if exists invoices_status_check;
    alter table invoices add constraint invoices_status_check check (status in ('draft', 'issued', 'part_paid', 'paid', 'overdue', 'void'));
    alter table invoices drop column if exists self_billing_number;
    alter table invoices drop column if exists supplier_invoice_date;
    alter table invoices drop column if exists vat_treatment;
    alter table money_settings drop column if exists vat_treatment;
  `);
}
