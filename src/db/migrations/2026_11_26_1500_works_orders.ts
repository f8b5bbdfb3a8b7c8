// Works orders by link, competing quotes and landlord logins (docs/landlords.md, docs/works-orders.md):
// the signed links a contractor without an account works from (one job, one contractor, expiring,
// revocable; a quote link is used up by its answer), requests for competing quotes with their
// deadline and the contractors invited, and `users.landlord_id` linking a login to a landlord
// record (the `landlord` role). Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    create table quote_requests (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      deadline_at timestamptz not null,
      notes text,
      status text not null check (status in ('open', 'awarded', 'cancelled')),
      awarded_quote_id integer references quotes(id),
      awarded_at timestamptz,
      created_by_user_id integer references users(id),
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index quote_requests_job on quote_requests (job_id);

    create table quote_request_invitations (
      id serial primary key,
      quote_request_id integer not null references quote_requests(id),
      contractor_id integer not null references contractors(id),
      status text not null check (status in ('invited', 'quoted', 'declined', 'awarded', 'not_awarded')),
      quote_id integer references quotes(id),
      responded_at timestamptz,
      created_at timestamptz not null,
      unique (quote_request_id, contractor_id)
    );
    create index quote_request_invitations_contractor on quote_request_invitations (contractor_id);

    create table works_order_links (
      id serial primary key,
      uuid uuid not null unique,
      agency_id integer not null references agencies(id),
      job_id integer not null references jobs(id),
      contractor_id integer not null references contractors(id),
      purpose text not null check (purpose in ('works_order', 'quote')),
      quote_request_id integer references quote_requests(id),
      nonce text not null unique,
      expires_at timestamptz not null,
      created_by_user_id integer references users(id),
      created_at timestamptz not null,
      last_used_at timestamptz,
      used_at timestamptz,
      used_action text,
      revoked_at timestamptz,
      revoked_by_user_id integer references users(id)
    );
    create index works_order_links_job on works_order_links (job_id);

    alter table users add column landlord_id integer references landlords(id);
    create index users_landlord on users (landlord_id) where landlord_id is not null;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table users drop column landlord_id;
    drop table works_order_links;
    drop table quote_request_invitations;
    drop table quote_requests;
  `);
}
