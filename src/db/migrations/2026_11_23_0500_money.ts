// Money (docs/money.md): VAT rates with effective dates, the agency's money settings and quote
// approval limits, contractors' VAT registration, the price list with contractor rates, quotes,
// invoices and credit notes with their lines, and payments. Amounts are integer pence; VAT rates
// are basis points (2000 = 20 %). Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table vat_rates (
      id serial primary key,
      code text not null,
      name text not null,
      rate_bp integer not null check (rate_bp >= 0 and rate_bp <= 10000),
      effective_from date not null,
      effective_to date,
      unique (code, effective_from)
    );
    insert into vat_rates (code, name, rate_bp, effective_from) values
      ('standard', 'Standard rate 20%', 2000, '2011-01-04'),
      ('reduced', 'Reduced rate 5%', 500, '1997-09-01'),
      ('zero', 'Zero rate 0%', 0, '1973-04-01'),
      ('exempt', 'Exempt', 0, '1973-04-01');

    create table money_settings (
      agency_id integer primary key references agencies(id),
      vat_number text,
      payment_terms_days integer not null default 30,
      updated_at timestamptz not null
    );

    create table quote_approval_limits (
      agency_id integer not null references agencies(id),
      job_type_id integer not null references job_types(id),
      limit_pence integer not null check (limit_pence >= 0),
      primary key (agency_id, job_type_id)
    );

    create table contractor_vat (
      contractor_id integer primary key references contractors(id),
      registered boolean not null,
      vat_number text,
      updated_at timestamptz not null
    );

    create table price_items (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      code text not null,
      name text not null,
      trade_id integer references trades(id),
      job_type_id integer references job_types(id),
      unit text not null check (unit in ('each', 'hour', 'day', 'm2')),
      unit_price_pence integer not null check (unit_price_pence >= 0),
      vat_rate_code text not null,
      active boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (agency_id, code)
    );

    create table contractor_rates (
      price_item_id integer not null references price_items(id),
      contractor_id integer not null references contractors(id),
      unit_price_pence integer not null check (unit_price_pence >= 0),
      updated_at timestamptz not null,
      primary key (price_item_id, contractor_id)
    );

    create table quotes (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      contractor_id integer not null references contractors(id),
      status text not null check (status in ('submitted', 'approved', 'rejected')),
      vat_registered boolean not null,
      net_pence integer not null,
      vat_pence integer not null,
      gross_pence integer not null,
      notes text,
      submitted_by_user_id integer references users(id),
      decided_by_user_id integer references users(id),
      decided_at timestamptz,
      decision_reason text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index quotes_job on quotes (job_id, id);
    create index quotes_agency_contractor on quotes (agency_id, contractor_id);

    create table invoices (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      contractor_id integer not null references contractors(id),
      kind text not null check (kind in ('invoice', 'credit_note')),
      credited_invoice_id integer references invoices(id),
      number integer,
      status text not null check (status in ('draft', 'issued', 'part_paid', 'paid', 'overdue', 'void')),
      contractor_reference text,
      vat_registered boolean not null,
      contractor_vat_number text,
      payment_terms_days integer not null,
      issue_date date,
      due_date date,
      net_pence integer not null,
      vat_pence integer not null,
      gross_pence integer not null,
      paid_pence integer not null default 0,
      credited_pence integer not null default 0,
      notes text,
      created_by_user_id integer references users(id),
      issued_at timestamptz,
      paid_at timestamptz,
      overdue_at timestamptz,
      voided_at timestamptz,
      void_reason text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (agency_id, kind, number)
    );
    create index invoices_agency_status on invoices (agency_id, status, id);
    create index invoices_agency_issue_date on invoices (agency_id, issue_date, id);
    create index invoices_job on invoices (job_id);
    create index invoices_due on invoices (due_date) where status in ('issued', 'part_paid');

    create table money_lines (
      id serial primary key,
      quote_id integer references quotes(id),
      invoice_id integer references invoices(id),
      position integer not null,
      description text not null,
      quantity_milli integer not null,
      unit_price_pence integer not null,
      vat_rate_code text not null,
      vat_rate_bp integer not null,
      net_pence integer not null,
      vat_pence integer not null,
      price_item_id integer references price_items(id),
      check ((quote_id is null) <> (invoice_id is null))
    );
    create index money_lines_quote on money_lines (quote_id, position) where quote_id is not null;
    create index money_lines_invoice on money_lines (invoice_id, position) where invoice_id is not null;

    create table payments (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      invoice_id integer not null references invoices(id),
      amount_pence integer not null check (amount_pence > 0),
      paid_on date not null,
      method text not null,
      reference text,
      recorded_by_user_id integer references users(id),
      created_at timestamptz not null
    );
    create index payments_invoice on payments (invoice_id, id);
    create index payments_agency_paid_on on payments (agency_id, paid_on, id);
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'payments', 'money_lines', 'invoices', 'quotes', 'contractor_rates', 'price_items', 'contractor_vat',
    'quote_approval_limits', 'money_settings', 'vat_rates',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
