/**
 * Re-imports and the columns a file lacks (docs/onboarding.md, "Columns not in the file"): for
 * every entity, an optional column absent from the file keeps the stored value on update (and the
 * dry run names it in `kept_columns`), while the column present with an empty cell clears the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createAgency, createBranch, userClient, type Client, type TestApp } from '../../helpers/app.ts';
import { form } from '../../helpers/upload-form.ts';

describe('imports: a column absent from the file keeps the stored value, an empty cell clears it', () => {
  let t: TestApp;
  let admin: Client;

  /** Uploads CSV text (dry run) and returns the import; fails on anything but 201. */
  const dryRun = async (entity: string, csv: string) => {
    const res = await admin.post('/api/imports', form(Buffer.from(csv), `${entity}.csv`, { entity }));
    if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
    return res.json().data as { uuid: string; counts: Record<string, number>; kept_columns: string[] };
  };
  /** Dry run then commit; returns the dry run. */
  const importCsv = async (entity: string, csv: string) => {
    const dry = await dryRun(entity, csv);
    const done = await admin.post(`/api/imports/${dry.uuid}/commit`);
    expect(done.json().data, done.body).toMatchObject({ status: 'committed' });
    return dry;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const agency = await createAgency(t.db, 'Kept Lets');
    await createBranch(t.db, agency.id, 'Leeds');
    admin = (await userClient(t, { role: 'admin', agencyId: agency.id })).client;
    await importCsv('addresses', 'external_ref,line1,line2,town,county,postcode,branch\nP-1,1 Cardigan Road,Flat 1,Leeds,West Yorkshire,LS6 3AG,Leeds\nP-2,2 Cardigan Road,,Leeds,,LS6 3AG,\n');
  });
  afterAll(async () => t?.close());

  it('landlords: e-mail, VAT number, kind and properties kept when their columns are absent; cleared by empty cells', async () => {
    await importCsv(
      'landlords',
      'external_ref,kind,name,email,phone,address_line1,address_town,address_postcode,vat_number,approval_limit_pence,properties\n' +
        'LL-1,company,Brudenell Estates Ltd,accounts@brudenell.example,0113 496 0200,1 Park Square,Leeds,LS1 2ND,GB123456789,30000,P-1:100\n',
    );
    const landlord = () =>
      t.db
        .selectFrom('landlords')
        .select(['id', 'kind', 'name', 'email', 'phone', 'address_postcode', 'vat_number', 'vat_registered', 'approval_limit_pence'])
        .where('external_ref', '=', 'LL-1')
        .executeTakeFirstOrThrow();
    const shares = async (id: number) => (await t.db.selectFrom('landlord_properties').select('share_bp').where('landlord_id', '=', id).execute()).map((s) => s.share_bp);
    const stored = await landlord();

    // Only the key and the name: nothing to change, and the dry run names what it keeps.
    const same = await dryRun('landlords', 'external_ref,name\nLL-1,Brudenell Estates Ltd\n');
    expect(same.counts).toEqual({ create: 0, update: 0, unchanged: 1, error: 0 });
    expect(same.kept_columns).toEqual(['kind', 'email', 'phone', 'address_line1', 'address_town', 'address_postcode', 'vat_number', 'approval_limit_pence', 'properties']);

    // A new name from a file without the optional columns: only the name changes.
    const renamed = await importCsv('landlords', 'external_ref,name\nLL-1,Brudenell Estates Limited\n');
    expect(renamed.counts).toEqual({ create: 0, update: 1, unchanged: 0, error: 0 });
    expect(await landlord()).toEqual({ ...stored, name: 'Brudenell Estates Limited' });
    expect(await shares(stored.id)).toEqual([10000]);

    // The columns present with empty cells: those fields are cleared (the VAT registration with
    // the number, the properties unlinked); the columns still absent are kept.
    const cleared = await importCsv('landlords', 'external_ref,name,email,vat_number,properties\nLL-1,Brudenell Estates Limited,,,\n');
    expect(cleared.counts).toEqual({ create: 0, update: 1, unchanged: 0, error: 0 });
    expect(cleared.kept_columns).toEqual(['kind', 'phone', 'address_line1', 'address_town', 'address_postcode', 'approval_limit_pence']);
    expect(await landlord()).toEqual({ ...stored, name: 'Brudenell Estates Limited', email: null, vat_number: null, vat_registered: false });
    expect(await shares(stored.id)).toEqual([]);

    // A new landlord from such a file gets the defaults: a person, no e-mail.
    await importCsv('landlords', 'external_ref,name\nLL-2,Grace Hopper\n');
    expect(await t.db.selectFrom('landlords').select(['kind', 'email', 'vat_registered']).where('external_ref', '=', 'LL-2').executeTakeFirstOrThrow()).toEqual({
      kind: 'person', email: null, vat_registered: false,
    });
  });

  it('contractors: e-mail, trades and coverage kept when their columns are absent; cleared by empty cells', async () => {
    await importCsv(
      'contractors',
      'external_ref,company_name,contact_name,email,phone,trades,coverage,certificates\n' +
        'C-1,Aire Valley Plumbing Ltd,Dan Aire,jobs@airevalley.example,0113 496 0101,plumbing; heating,LS6 LS7,gas_safe:123456:2027-05-31\n',
    );
    const contractor = () =>
      t.db.selectFrom('contractors').select(['id', 'contact_name', 'email', 'phone']).where('external_ref', '=', 'C-1').executeTakeFirstOrThrow();
    const lists = async (id: number) => ({
      trades: (await t.db.selectFrom('contractor_trades').select('trade_id').where('contractor_id', '=', id).execute()).length,
      coverage: (await t.db.selectFrom('contractor_coverage').select('district').where('contractor_id', '=', id).orderBy('district').execute()).map((c) => c.district),
    });
    const stored = await contractor();
    expect(await lists(stored.id)).toEqual({ trades: 2, coverage: ['LS6', 'LS7'] });

    const same = await dryRun('contractors', 'external_ref,company_name\nC-1,Aire Valley Plumbing Ltd\n');
    expect(same.counts).toEqual({ create: 0, update: 0, unchanged: 1, error: 0 });
    // Certificates only add (or change an expiry), so they are never "kept": nothing would be cleared.
    expect(same.kept_columns).toEqual(['contact_name', 'email', 'phone', 'trades', 'coverage']);

    const phoned = await importCsv('contractors', 'external_ref,company_name,phone\nC-1,Aire Valley Plumbing Ltd,0113 496 0999\n');
    expect(phoned.counts).toEqual({ create: 0, update: 1, unchanged: 0, error: 0 });
    expect(await contractor()).toEqual({ ...stored, phone: '0113 496 0999' });
    expect(await lists(stored.id)).toEqual({ trades: 2, coverage: ['LS6', 'LS7'] });

    const cleared = await importCsv('contractors', 'external_ref,company_name,email,trades\nC-1,Aire Valley Plumbing Ltd,,\n');
    expect(cleared.counts).toEqual({ create: 0, update: 1, unchanged: 0, error: 0 });
    expect(await contractor()).toEqual({ ...stored, phone: '0113 496 0999', email: null });
    expect(await lists(stored.id)).toEqual({ trades: 0, coverage: ['LS6', 'LS7'] });
  });

  it('contractors: two firms of the same name with their own references are two firms; a reference takes over a namesake recorded without one', async () => {
    const two = await importCsv('contractors', 'external_ref,company_name\nSN-1,Smith & Sons\nSN-2,Smith & Sons\n');
    expect(two.counts).toEqual({ create: 2, update: 0, unchanged: 0, error: 0 });
    expect((await dryRun('contractors', 'external_ref,company_name\nSN-1,Smith & Sons\nSN-2,Smith & Sons\n')).counts).toEqual({ create: 0, update: 0, unchanged: 2, error: 0 });
    await importCsv('contractors', 'company_name\nKirkstall Glazing\n');
    const adopted = await importCsv('contractors', 'external_ref,company_name\nKG-1,Kirkstall Glazing\n');
    expect(adopted.counts).toEqual({ create: 0, update: 1, unchanged: 0, error: 0 });
  });

  it('tenants: e-mail and phones kept when their columns are absent; a phone cleared by an empty cell; the link to the property kept', async () => {
    await importCsv('tenants', 'external_ref,name,email,phone,mobile,property_ref\nT-1,Zoë Brontë,zoe@example.test,0113 496 0001,07700 900123,P-1\n');
    const tenant = () => t.db.selectFrom('tenants').select(['id', 'name', 'email', 'phone', 'mobile']).where('external_ref', '=', 'T-1').executeTakeFirstOrThrow();
    const stored = await tenant();

    const renamed = await importCsv('tenants', 'external_ref,name\nT-1,Zoë Brontë-Smith\n');
    expect(renamed.counts).toEqual({ create: 0, update: 1, unchanged: 0, error: 0 });
    // The property columns only link, never unlink: they are not listed.
    expect(renamed.kept_columns).toEqual(['email', 'phone', 'mobile', 'preferred_contact']);
    expect(await tenant()).toEqual({ ...stored, name: 'Zoë Brontë-Smith' });

    await importCsv('tenants', 'external_ref,name,phone\nT-1,Zoë Brontë-Smith,\n');
    expect(await tenant()).toEqual({ ...stored, name: 'Zoë Brontë-Smith', phone: null });
    expect(await t.db.selectFrom('tenant_addresses').select('address_id').where('tenant_id', '=', stored.id).execute()).toHaveLength(1);
  });

  it('properties: second line and county kept when their columns are absent; the second line cleared by an empty cell', async () => {
    const property = () => t.db.selectFrom('addresses').select(['line2', 'county', 'branch_id']).where('external_ref', '=', 'P-1').executeTakeFirstOrThrow();
    const stored = await property();
    expect(stored).toMatchObject({ line2: 'Flat 1', county: 'West Yorkshire' });

    const same = await dryRun('addresses', 'external_ref,line1,town,postcode\nP-1,1 Cardigan Road,Leeds,LS6 3AG\n');
    expect(same.counts).toEqual({ create: 0, update: 0, unchanged: 1, error: 0 });
    expect(same.kept_columns).toEqual(['line2', 'line3', 'is_communal', 'county', 'branch']);

    const cleared = await importCsv('addresses', 'external_ref,line1,line2,town,postcode\nP-1,1 Cardigan Road,,Leeds,LS6 3AG\n');
    expect(cleared.counts).toEqual({ create: 0, update: 1, unchanged: 0, error: 0 });
    expect(await property()).toEqual({ ...stored, line2: null });
  });
});
