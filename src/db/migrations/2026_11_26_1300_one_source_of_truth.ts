// One place for each agency setting that existed twice (docs/onboarding.md, "One source of truth"):
// - office hours: the table agency_office_hours (what the SLA clocks count) is the place; the
//   agency profile's week stored in agencies.office_hours (jsonb) is copied into it for agencies
//   that have no rows yet and at least one open day;
// - the default approval limit: agencies.default_approval_limit_pence is the place; a limit saved
//   in landlord_settings.default_approval_limit_pence (the one approvals used) is copied over it.
// Expand: nothing is dropped or renamed; the old columns stay readable (marked deprecated) and the
// application no longer reads or writes them. Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    insert into agency_office_hours (agency_id, weekday, opens_minute, closes_minute, updated_at)
    select a.id,
           array_position(array['mon','tue','wed','thu','fri','sat','sun'], d.key) - 1,
           split_part(d.value->>'open', ':', 1)::int * 60 + split_part(d.value->>'open', ':', 2)::int,
           split_part(d.value->>'close', ':', 1)::int * 60 + split_part(d.value->>'close', ':', 2)::int,
           now()
      from agencies a
      cross join lateral jsonb_each(a.office_hours) d
     where a.office_hours is not null
       and jsonb_typeof(a.office_hours) = 'object'
       and d.key in ('mon','tue','wed','thu','fri','sat','sun')
       and jsonb_typeof(d.value) = 'object'
       and (d.value->>'open') ~ '^[0-2][0-9]:[0-5][0-9]$'
       and (d.value->>'close') ~ '^[0-2][0-9]:[0-5][0-9]$'
       and (d.value->>'close') > (d.value->>'open')
       and not exists (select 1 from agency_office_hours h where h.agency_id = a.id)
    on conflict do nothing;

    update agencies a
       set default_approval_limit_pence = s.default_approval_limit_pence
      from landlord_settings s
     where s.agency_id = a.id
       and s.default_approval_limit_pence is not null
       and a.default_approval_limit_pence is distinct from s.default_approval_limit_pence;

    comment on column agencies.office_hours is 'deprecated: read and write agency_office_hours';
    comment on column landlord_settings.default_approval_limit_pence is 'deprecated: read and write agencies.default_approval_limit_pence';
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    comment on column agencies.office_hours is null;
    comment on column landlord_settings.default_approval_limit_pence is null;
  `);
}
