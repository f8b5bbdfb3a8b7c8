// Compliance by the letter of each regulation, computed for every property from what it is
// (docs/compliance.md "What a property needs" and "The rules"): the property's gas supply, storeys
// and rooms with a fixed combustion appliance; whether a building has a lift; each type's rule of
// application (`applies_to`) and the regulation it implements; whether an item was derived from
// the property or added by hand; and, on certificates, the EPC rating and MEES exemption, the EICR
// outcome with its remedial works, the copy served on the tenant, the alarms found working per
// storey and per room.
// Expand: nullable or defaulted columns only; older instances never read them.
// Frozen: never import application code here.
import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table addresses add column if not exists gas_supply boolean;
    alter table addresses add column if not exists storeys integer check (storeys between 1 and 100);
    alter table addresses add column if not exists combustion_rooms text[] not null default '{}';
    alter table buildings add column if not exists has_lift boolean not null default false;
    alter table compliance_item_types add column if not exists applies_to text not null default 'manual';
    alter table compliance_item_types add column if not exists regulation text not null default '';
    update compliance_item_types set applies_to = case code
        when 'gas_safety' then 'gas' when 'hmo_fire_risk' then 'hmo' when 'hmo_licence' then 'hmo' else 'dwelling' end
      where custom = false and applies_to = 'manual';
    alter table compliance_items add column if not exists derived boolean not null default false;
    alter table compliance_certificates add column if not exists epc_rating text check (epc_rating in ('A','B','C','D','E','F','G'));
    alter table compliance_certificates add column if not exists exemption_reference text;
    alter table compliance_certificates add column if not exists exemption_until date;
    alter table compliance_certificates add column if not exists outcome text check (outcome in ('satisfactory','unsatisfactory'));
    alter table compliance_certificates add column if not exists remedial_due_on date;
    alter table compliance_certificates add column if not exists remedial_completed_on date;
    alter table compliance_certificates add column if not exists tenant_copy_due_on date;
    alter table compliance_certificates add column if not exists tenant_copy_served_on date;
    alter table compliance_certificates add column if not exists tenant_copy_method text;
    alter table compliance_certificates add column if not exists smoke_alarm_storeys integer check (smoke_alarm_storeys between 0 and 100);
    alter table compliance_certificates add column if not exists co_alarm_rooms text[];
    alter table compliance_certificates add column if not exists tenancy_start_on date;
  `);
}

export async function down(db: Kysely<any>): Promise<void> {
  await runScript(db, `
    alter table compliance_certificates drop column if exists tenancy_start_on;
    alter table compliance_certificates drop column if exists co_alarm_rooms;
    alter table compliance_certificates drop column if exists smoke_alarm_storeys;
    alter table compliance_certificates drop column if exists tenant_copy_method;
    alter table compliance_certificates drop column if exists tenant_copy_served_on;
    alter table compliance_certificates drop column if exists tenant_copy_due_on;
    alter table compliance_certificates drop column if exists remedial_completed_on;
    alter table compliance_certificates drop column if exists remedial_due_on;
    alter table compliance_certificates drop column if exists outcome;
    alter table compliance_certificates drop column if exists exemption_until;
    alter table compliance_certificates drop column if exists exemption_reference;
    alter table compliance_certificates drop column if exists epc_rating;
    alter table compliance_items drop column if exists derived;
    alter table compliance_item_types drop column if exists regulation;
    alter table compliance_item_types drop column if exists applies_to;
    alter table buildings drop column if exists has_lift;
    alter table addresses drop column if exists combustion_rooms;
    alter table addresses drop column if exists storeys;
    alter table addresses drop column if exists gas_supply;
  `);
}
