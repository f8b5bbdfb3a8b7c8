// Documents an accountant accepts, landlord recharges and statements (docs/money.md "Invoice PDF",
// "Recharges", "Statements"): the contractor's address (the supplier's address on its invoices),
// the date of supply of an invoice (its tax point when issued more than 14 days later) and the
// refund a credit note against a paid invoice leaves owed; the agency's recharge fee (percent of
// the cost or fixed, VAT on the fee) and one recharge per landlord share of an issued contractor
// invoice or credit note. Amounts are integer pence. Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table contractors add column address_line1 text;
    alter table contractors add column address_line2 text;
    alter table contractors add column address_town text;
    alter table contractors add column address_postcode text;

    alter table invoices add column supply_date date;
    alter table invoices add column refund_due_pence integer not null default 0 check (refund_due_pence >= 0);

    create table recharge_settings (
      agency_id integer primary key references agencies(id),
      fee_mode text not null default 'none' check (fee_mode in ('none', 'percent', 'fixed')),
      fee_percent_bp integer not null default 0 check (fee_percent_bp >= 0 and fee_percent_bp <= 10000),
      fee_fixed_pence integer not null default 0 check (fee_fixed_pence >= 0),
      updated_at timestamptz not null
    );

    create table landlord_recharges (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      number integer not null,
      landlord_id integer not null references landlords(id),
      address_id integer not null references addresses(id),
      job_id integer not null references jobs(id),
      invoice_id integer not null references invoices(id),
      kind text not null check (kind in ('recharge', 'credit')),
      share_bp integer not null check (share_bp > 0 and share_bp <= 10000),
      recharge_date date not null,
      cost_net_pence integer not null,
      cost_vat_pence integer not null,
      fee_net_pence integer not null,
      fee_vat_pence integer not null,
      fee_vat_rate_bp integer not null,
      total_pence integer not null,
      status text not null default 'active' check (status in ('active', 'cancelled')),
      created_at timestamptz not null,
      cancelled_at timestamptz,
      unique (agency_id, number),
      unique (invoice_id, landlord_id)
    );
    create index landlord_recharges_landlord_date on landlord_recharges (landlord_id, recharge_date);
    create index landlord_recharges_agency_date on landlord_recharges (agency_id, recharge_date);
  `);
}
