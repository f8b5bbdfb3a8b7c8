/**
 * The conversations world: attachedRecordsWorld (a job of branch A1 with a tenant and a
 * contractor, both with accounts) plus a landlord of the job's property with a login, the
 * tenant's mobile number and the contractor's phone.
 */
import { newUuid } from '../../../src/lib/crypto.ts';
import { Client, createUser, login, type TestApp } from '../../helpers/app.ts';
import { attachedRecordsWorld } from '../../helpers/attached-records-world.ts';

/** Builds the world; see the file comment. */
export async function conversationsWorld(t: TestApp) {
  const w = await attachedRecordsWorld(t);
  const now = new Date();
  const landlord = await t.db
    .insertInto('landlords')
    .values({ uuid: newUuid(), agency_id: w.agencyA.id, kind: 'person', name: 'Margaret Hale', email: 'margaret.hale@example.test', phone: '+447700900555', address_line1: null, address_line2: null, address_town: null, address_postcode: null, bank_account_name: null, bank_sort_code: null, bank_account_number: null, vat_number: null, approval_limit_pence: null, notes: null, created_at: now, updated_at: now, erased_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db.insertInto('landlord_properties').values({ landlord_id: landlord.id, address_id: w.address.id, share_bp: 10_000, created_at: now }).execute();
  const landlordUser = await createUser(t.db, { role: 'landlord', agencyId: w.agencyA.id, name: 'Margaret Hale' });
  await t.db.updateTable('users').set({ landlord_id: landlord.id }).where('id', '=', landlordUser.id).execute();
  const landlordClient = new Client(t.app, await login(t.app, landlordUser.email));
  await t.db.updateTable('tenants').set({ mobile: '+447700900123', email: 'emily.clarke@example.test' }).where('id', '=', w.tenantId).execute();
  await t.db.updateTable('contractors').set({ phone: '+447700900777', email: 'office@fletcher.example.test' }).where('id', '=', w.contractorId).execute();
  return { ...w, landlordId: landlord.id, landlord: { user: landlordUser, client: landlordClient } };
}
