// Landlords (docs/landlords.md): landlord records with their bank details and VAT status, their
// ownership shares of properties (addresses, basis points), the spend limits (per landlord, per
// property, the agency's default) and the approval requests a landlord answers by signed link,
// with one single-use link row per request. The HMAC key that signs the links is generated once
// and kept in `link_signing_keys`. Amounts are integer pence. Frozen: never import application
// code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table landlords (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      kind text not null check (kind in ('person', 'company')),
      name text not null,
      email text,
      phone text,
      address_line1 text,
      address_line2 text,
      address_town text,
      address_postcode text,
      bank_account_name text,
      bank_sort_code text,
      bank_account_number text,
      vat_registered boolean not null default false,
      vat_number text,
      approval_limit_pence integer check (approval_limit_pence >= 0),
      notes text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      erased_at timestamptz
    );
    create index landlords_agency_name on landlords (agency_id, name);

    create table landlord_properties (
      landlord_id integer not null references landlords(id),
      address_id integer not null references addresses(id),
      share_bp integer not null check (share_bp > 0 and share_bp <= 10000),
      created_at timestamptz not null,
      primary key (landlord_id, address_id)
    );
    create index landlord_properties_address on landlord_properties (address_id);

    create table property_approval_limits (
      address_id integer primary key references addresses(id),
      limit_pence integer not null check (limit_pence >= 0),
      updated_at timestamptz not null
    );

    create table landlord_settings (
      agency_id integer primary key references agencies(id),
      default_approval_limit_pence integer check (default_approval_limit_pence >= 0),
      reminder_after_hours integer not null default 48 check (reminder_after_hours > 0),
      expires_after_hours integer not null default 120 check (expires_after_hours > 0),
      updated_at timestamptz not null
    );

    create table approval_requests (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      quote_id integer references quotes(id),
      landlord_id integer not null references landlords(id),
      amount_pence integer not null check (amount_pence >= 0),
      limit_pence integer not null check (limit_pence >= 0),
      description text not null,
      status text not null check (status in ('pending', 'approved', 'declined', 'question', 'expired', 'cancelled')),
      comment text,
      requested_by_user_id integer references users(id),
      created_at timestamptz not null,
      expires_at timestamptz not null,
      reminded_at timestamptz,
      answered_at timestamptz,
      escalated_at timestamptz,
      updated_at timestamptz not null
    );
    create index approval_requests_job on approval_requests (job_id);
    create index approval_requests_pending on approval_requests (status, expires_at) where status = 'pending';

    create table approval_links (
      id serial primary key,
      approval_id integer not null references approval_requests(id),
      landlord_id integer not null references landlords(id),
      nonce text not null unique,
      expires_at timestamptz not null,
      created_at timestamptz not null,
      used_at timestamptz,
      used_action text,
      revoked_at timestamptz
    );
    create index approval_links_approval on approval_links (approval_id);

    create table link_signing_keys (
      name text primary key,
      secret text not null,
      created_at timestamptz not null
    );
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    drop table link_signing_keys;
    drop table approval_links;
    drop table approval_requests;
    drop table landlord_settings;
    drop table property_approval_limits;
    drop table landlord_properties;
    drop table landlords;
  `);
}
