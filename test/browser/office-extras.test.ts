/**
 * The office's remaining staff operations in the console (docs/console.md "The agency's office:
 * more of the office"), in headless Chromium on PGlite with axe at 390 px and 1280 px: an
 * administrator opens a maintenance schedule's own page from the compliance list; edits an EPC's
 * certificate (its exemption and the tenant's copy); adds the lift examination to two picked
 * properties and then to the whole portfolio, backing out once; records a property's gas supply,
 * storeys and rooms with a combustion appliance; follows an import to its own page and imports it
 * there; sees the agency's heavy work waiting and running on /exports; and reads the workflow
 * engine's workflows on "Lists and rules" (and the API's message when the
 * engine fails). Each page is reloaded and lands on the same page; each
 * change is checked in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUuid } from '../../src/lib/crypto.ts';
import { addDays, humanDate, londonDate } from '../../src/lib/london-time.ts';
import { Client, createAgency, createBranch, createUser, login, type TestApp } from '../helpers/app.ts';
import { BrowserSession, checkAtBothWidths, CHROMIUM, DESKTOP, reloadLands, serveConsole } from '../helpers/browser.ts';
import { insertAddress } from '../helpers/factories.ts';
import { n8nWorkflow, startFakeN8n, type FakeN8n } from '../jobs/workflow-engine/fake-n8n.ts';

const check = checkAtBothWidths;

const TITLE = CHROMIUM ? "The office's remaining staff operations in the console" : "The office's remaining staff operations in the console (skipped: Debian chromium is not installed)";

describe.skipIf(!CHROMIUM)(TITLE, () => {
  let t: TestApp;
  let n8n: FakeN8n;
  const session = new BrowserSession();
  let baseUrl: string;

  beforeAll(async () => {
    n8n = await startFakeN8n();
    n8n.workflows = [n8nWorkflow('wfA1', 'New job -> notify contractor', true, ['jobs']), n8nWorkflow('wfC3', 'Invoice paid -> accounting', false)];
    ({ t, baseUrl } = await serveConsole({ CARETAKER_WORKFLOW_ENGINE_URL: `${n8n.url}/`, CARETAKER_WORKFLOW_ENGINE_API_KEY: n8n.apiKey }));
    await session.launch();
  }, 300_000);
  afterAll(async () => {
    await session.close(t);
    await n8n?.close();
  });

  it('an administrator runs schedules, certificates, bulk items, a property profile, an import, heavy work and workflows', async () => {
    const today = londonDate(new Date());
    const agency = await createAgency(t.db, 'Kirkstall Lettings');
    const branch = await createBranch(t.db, agency.id, 'Kirkstall');
    const first = await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '28 Blenheim Terrace', postcode: 'LS2 9XS' });
    await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '4 Otley Road', postcode: 'LS6 2AA' });
    await insertAddress(t.db, { agencyId: agency.id, branchId: branch.id, line1: '9 Kirkstall Lane', postcode: 'LS5 3BB' });
    const admin = await createUser(t.db, { role: 'admin', agencyId: agency.id, branchId: branch.id, name: 'Kit Admin' });
    const api = new Client(t.app, await login(t.app, admin.email));

    // A schedule and an EPC of rating F (below E: it needs an exemption), made through the API.
    const due = addDays(today, 60);
    const made = await api.post('/api/compliance/schedules', { title: 'Annual gas safety check', rrule: 'FREQ=MONTHLY;INTERVAL=12', starts_on: due, lead_days: 28, address_uuid: first.uuid, type: 'gas_safety' });
    expect(made.statusCode, made.body).toBe(201);
    const epc = await api.post('/api/compliance/items', { address_uuid: first.uuid, type: 'epc' });
    expect(epc.statusCode, epc.body).toBeLessThan(300);
    const epcUuid = epc.json().data.uuid as string;
    const cert = await api.post(`/api/compliance/items/${epcUuid}/certificates`, { issued_on: today, epc_rating: 'F', reference: 'EPC-0412-7781' });
    expect(cert.statusCode, cert.body).toBe(201);

    const page = await session.signedIn(baseUrl, admin.email, DESKTOP, { timeoutMs: 20_000 });

    // The schedule's own page, from its title in the list on /compliance.
    await page.goto(`${baseUrl}/compliance`);
    await page.getByRole('link', { name: 'Annual gas safety check' }).click();
    await page.getByRole('heading', { name: 'Annual gas safety check', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/compliance\/schedules\/[0-9a-f-]{36}$/);
    await page.getByText(`${humanDate(due)}: its job is raised on ${humanDate(addDays(due, -28))}`).waitFor();
    await page.getByText('every 12 months, raised 28 days before').waitFor();
    await page.getByText('No job raised yet.', { exact: false }).waitFor();
    await check(page, 'office-schedule');
    await reloadLands(page, 'Annual gas safety check');

    // A certificate edited: the EPC's exemption and the tenant's copy.
    await page.getByRole('link', { name: 'Back to compliance' }).click();
    const items = page.getByRole('region', { name: 'Compliance items' });
    await items.getByRole('button', { name: /^Edit certificate: Energy performance certificate/ }).click();
    const edit = page.getByRole('region', { name: /Edit the certificate: Energy performance certificate/ });
    await edit.getByRole('button', { name: 'Save certificate' }).click();
    await edit.getByText('Fill in at least one field to change.').waitFor();
    await edit.getByLabel('Exemption reference').fill('PRSE-2026-0412');
    await edit.getByLabel('Exemption until').fill(addDays(today, 365));
    await edit.getByLabel("Tenant's copy served on").fill(today);
    await edit.getByLabel('How it was served').selectOption('post');
    await check(page, 'office-certificate-edit');
    await edit.getByRole('button', { name: 'Save certificate' }).click();
    await page.getByRole('status').getByText(/^Certificate saved: Energy performance certificate at 28 Blenheim Terrace/).waitFor();
    const stored = await t.db.selectFrom('compliance_certificates').select(['exemption_reference', 'exemption_until', 'tenant_copy_served_on', 'tenant_copy_method']).where('reference', '=', 'EPC-0412-7781').executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ exemption_reference: 'PRSE-2026-0412', tenant_copy_method: 'post' });
    expect(stored.tenant_copy_served_on).not.toBeNull();
    expect(stored.exemption_until).not.toBeNull();

    // The lift examination added to two picked properties (backed out of once), then to every property.
    const loler = async () =>
      (
        await t.db
          .selectFrom('compliance_items')
          .innerJoin('compliance_item_types', 'compliance_item_types.id', 'compliance_items.type_id')
          .where('compliance_item_types.code', '=', 'loler')
          .select('compliance_items.id')
          .execute()
      ).length;
    const bulk = page.getByRole('region', { name: 'Add an item to many properties' });
    await bulk.getByLabel('Compliance item to add').selectOption('loler');
    await bulk.getByRole('button', { name: 'Add to the properties' }).click();
    await bulk.getByText('Pick at least one property.').waitFor();
    await bulk.getByRole('combobox', { name: /Add a property to the selection/ }).fill('Otley');
    await page.getByRole('option', { name: /4 Otley Road/ }).click();
    await bulk.getByRole('listitem').filter({ hasText: '4 Otley Road' }).waitFor();
    await bulk.getByRole('combobox', { name: /Add a property to the selection/ }).fill('Kirkstall');
    await page.getByRole('option', { name: /9 Kirkstall Lane/ }).click();
    await bulk.getByRole('listitem').filter({ hasText: '9 Kirkstall Lane' }).waitFor();
    await check(page, 'office-bulk-items');
    await bulk.getByRole('button', { name: 'Add to the properties' }).click();
    await page.getByRole('alertdialog').getByText('Add Lift thorough examination (LOLER) to 2 properties?').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Not now' }).click();
    expect(await loler()).toBe(0);
    await bulk.getByRole('button', { name: 'Add to the properties' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Add Lift thorough examination (LOLER)' }).click();
    await bulk.getByText('Lift thorough examination (LOLER) added to 2 of 2 properties.').waitFor();
    expect(await loler()).toBe(2);
    await bulk.getByLabel('Every property of the agency').check();
    await bulk.getByRole('button', { name: 'Add to the properties' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Add Lift thorough examination (LOLER)' }).click();
    await bulk.getByText('Lift thorough examination (LOLER) added to 1 of 3 properties; 2 already had one.').waitFor();
    expect(await loler()).toBe(3);

    // The property's profile: no gas, three storeys, two rooms with a combustion appliance.
    await page.goto(`${baseUrl}/properties/${first.uuid}`);
    await page.getByRole('heading', { name: /28 Blenheim Terrace/, level: 1 }).waitFor();
    const profile = page.getByRole('region', { name: 'What the property has' });
    await profile.getByLabel('Storeys with living accommodation').fill('0');
    await profile.getByRole('button', { name: 'Save what the property has' }).click();
    await profile.getByText('Enter a whole number from 1 to 100.').waitFor();
    await profile.getByLabel('Gas supply').selectOption('no');
    await profile.getByLabel('Storeys with living accommodation').fill('3');
    await profile.getByLabel('Rooms with a fixed combustion appliance').fill('Living room, Bedroom 1');
    await profile.getByRole('button', { name: 'Save what the property has' }).click();
    await profile.getByText(/^Saved: has no gas supply, 3 storeys, a combustion appliance in Living room, Bedroom 1\. The property has \d+ compliance items\.$/).waitFor();
    const address = await t.db.selectFrom('addresses').select(['gas_supply', 'storeys', 'combustion_rooms']).where('uuid', '=', first.uuid).executeTakeFirstOrThrow();
    expect(address).toEqual({ gas_supply: false, storeys: 3, combustion_rooms: ['Living room', 'Bedroom 1'] });
    await check(page, 'office-property-profile');
    await reloadLands(page, /28 Blenheim Terrace/);

    // An import followed to its own page, imported from there.
    await page.goto(`${baseUrl}/imports`);
    await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
    await page.getByLabel('What the file holds').selectOption('addresses');
    await page.getByLabel('CSV or XLSX file').setInputFiles({ name: 'properties.csv', mimeType: 'text/csv', buffer: Buffer.from('line1,town,postcode\n5 Cardigan Road,Leeds,LS6 1LF\n7 Cardigan Road,Leeds,\n') });
    await page.getByLabel('Skip bad rows (import the good ones)').check();
    await page.getByRole('button', { name: 'Check file' }).click();
    await page.getByRole('link', { name: "Open this import's own page" }).click();
    await page.getByRole('heading', { name: 'Import of properties.csv', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/imports\/[0-9a-f-]{36}$/);
    await page.getByText('checked, not imported yet').waitFor();
    await page.getByRole('table', { name: 'Rows with errors' }).getByRole('cell', { name: 'postcode' }).waitFor();
    await check(page, 'office-import');
    await reloadLands(page, 'Import of properties.csv');
    await page.getByRole('button', { name: 'Import 1 row' }).click();
    await page.getByText('imported', { exact: true }).waitFor();
    await page.getByText('1 of 2 rows', { exact: false }).or(page.getByText('2 of 2 rows', { exact: false })).waitFor();
    expect(await t.db.selectFrom('addresses').select('id').where('line1', '=', '5 Cardigan Road').executeTakeFirst()).toBeDefined();

    // Heavy work on /exports: nothing at first, then an export running and a report waiting.
    await page.goto(`${baseUrl}/exports`);
    const heavy = page.getByRole('region', { name: 'Waiting and running' });
    await heavy.getByText('Nothing is waiting or running.', { exact: false }).waitFor();
    const now = new Date();
    await t.db
      .insertInto('heavy_work')
      .values([
        { uuid: newUuid(), agency_id: agency.id, kind: 'export', status: 'running', steps_done: 3, steps_total: 12, created_at: now, started_at: now, heartbeat_at: now },
        { uuid: newUuid(), agency_id: agency.id, kind: 'report', status: 'waiting', steps_total: null, created_at: now, started_at: null, heartbeat_at: now },
      ])
      .execute();
    await heavy.getByRole('button', { name: 'Check again' }).click();
    await heavy.getByRole('cell', { name: "Export of the agency's data" }).waitFor();
    await heavy.getByText('3 of 12 done').waitFor();
    await heavy.getByRole('cell', { name: 'Waiting: next in the queue' }).waitFor();
    await check(page, 'office-heavy-work');
    await reloadLands(page, 'Exports and reports');
    await heavy.getByRole('cell', { name: 'Report download' }).waitFor();
    await t.db.deleteFrom('heavy_work').where('agency_id', '=', agency.id).execute();

    // The workflow engine's workflows on "Lists and rules".
    await page.goto(`${baseUrl}/setup`);
    const flows = page.getByRole('region', { name: 'Workflows' });
    await flows.getByRole('cell', { name: 'New job -> notify contractor' }).waitFor();
    await flows.getByRole('cell', { name: 'Invoice paid -> accounting' }).waitFor();
    await flows.getByRole('cell', { name: 'jobs', exact: true }).waitFor();
    await check(page, 'office-workflows');
    await reloadLands(page, 'Lists and rules');
    await flows.getByRole('cell', { name: 'New job -> notify contractor' }).waitFor();
    // An engine that fails: the API's message, with "Try again".
    n8n.mode = 'error500';
    await page.reload();
    await flows.getByText('The workflow engine answered with status 500', { exact: false }).waitFor();
    await flows.getByRole('button', { name: 'Try again' }).waitFor();
  });
});
