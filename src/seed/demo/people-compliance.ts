/**
 * Demo step for the people areas (docs/demo-data.md): certificates of the demo contractors (one
 * for each trade that requires one, CHAS and insurance for some; a handful expiring within 30
 * days and one required certificate expired), coverage districts taken from the agency's
 * addresses, and GDPR consents of some tenants. Runs after the base step and finds contractors
 * and tenants by query, so it works whatever the base step created. Deterministic: every choice
 * comes from ctx.rng and every date from ctx.now.
 */
import { DAY_MS } from '../../lib/clock.ts';
import { REQUIRED_CERTIFICATES } from '../../modules/people/contractors/index.ts';
import { CONSENT_PURPOSES, CONSENT_SOURCES } from '../../modules/platform/gdpr/index.ts';
import type { DemoContext } from './context.ts';
import { activeTenants, addressPostcodes, allContractors, contractorJobPostcodes, contractorTradeCodes, insertRows } from '../../db/seed.repository.ts';

const day = (base: Date, offset: number) => new Date(base.getTime() + offset * DAY_MS).toISOString().slice(0, 10);

/** The loader's deterministic uuid source. */
function uuidOf(ctx: DemoContext): string {
  return ctx.uuid();
}

/** Adds certificates, coverage districts and consents to the demo data. */
export async function peopleComplianceStep(ctx: DemoContext): Promise<void> {
  const { trx, rng, now } = ctx;
  const contractors = await allContractors(trx);
  const trades = await contractorTradeCodes(trx);
  const postcodes = await addressPostcodes(trx);
  const demoContractor = (ctx.ids as { demoContractorId?: number }).demoContractorId;

  // Coverage: a home area (postcode letters) from the agency's addresses, 2-6 of its districts.
  const districts = new Map<number, Map<string, string[]>>();
  for (const p of postcodes) {
    const district = p.postcode.split(' ')[0]!;
    const area = district.replace(/[0-9].*$/, '');
    const byArea = districts.get(p.agency_id) ?? new Map<string, string[]>();
    const list = byArea.get(area) ?? [];
    if (!list.includes(district)) list.push(district);
    byArea.set(area, list);
    districts.set(p.agency_id, byArea);
  }
  // Districts of the jobs each contractor already works on decide its home area.
  const worked = await contractorJobPostcodes(trx);
  let coverageRows = 0;
  for (const c of contractors) {
    const areas = districts.get(c.agency_id);
    if (!areas || areas.size === 0) continue;
    const own = worked.filter((j) => j.contractor_id === c.id).map((j) => j.postcode.split(' ')[0]!);
    const counts = new Map<string, number>();
    for (const d of own) counts.set(d.replace(/[0-9].*$/, ''), (counts.get(d.replace(/[0-9].*$/, '')) ?? 0) + 1);
    const home = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
    const pool = [...(home && areas.get(home) ? areas.get(home)! : rng.pick([...areas.values()]))].sort();
    const chosen = new Set<string>(own.filter((d) => pool.includes(d)).slice(0, 6));
    const want = Math.min(pool.length, Math.max(chosen.size, rng.int(2, 6)));
    while (chosen.size < want) chosen.add(rng.pick(pool));
    await insertRows(trx, 'contractor_coverage', [...chosen].map((d) => ({ contractor_id: c.id, district: d })), { ignoreConflicts: true });
    coverageRows += chosen.size;
  }

  // Certificates: one per requiring trade, CHAS for some, insurance for most.
  const certs: Array<{ contractor: number; agency: number; type: string; required: boolean }> = [];
  for (const c of contractors) {
    const codes = trades.filter((t) => t.contractor_id === c.id).map((t) => t.code);
    const types = new Set<string>();
    for (const code of codes) {
      const required = REQUIRED_CERTIFICATES[code];
      if (required && !required.some((r) => types.has(r))) types.add(rng.pick(required));
    }
    for (const type of types) certs.push({ contractor: c.id, agency: c.agency_id, type, required: true });
    if (rng.chance(0.4)) certs.push({ contractor: c.id, agency: c.agency_id, type: 'chas', required: false });
    if (rng.chance(0.8)) certs.push({ contractor: c.id, agency: c.agency_id, type: 'public_liability', required: false });
  }
  const expiries = certs.map(() => rng.int(45, 700));
  const soon = certs.map((_, i) => i).filter((i) => certs[i]!.contractor !== demoContractor);
  for (let n = 0; n < Math.min(6, soon.length); n++) expiries[soon[(n * 7 + 3) % soon.length]!] = rng.int(2, 28);
  const expiredIndex = soon.find((i) => certs[i]!.required);
  if (expiredIndex !== undefined) expiries[expiredIndex] = -rng.int(5, 40);
  if (certs.length > 0) {
    await insertRows(trx, 'contractor_certifications', certs.map((c, i) => ({
      uuid: uuidOf(ctx),
      agency_id: c.agency,
      contractor_id: c.contractor,
      cert_type: c.type,
      reference: `${c.type.toUpperCase().replace('_', '-')}-${String(rng.int(100000, 999999))}`,
      issued_on: day(now, expiries[i]! - 365),
      expires_on: day(now, expiries[i]!),
      file_key: null, file_mime: null, file_size: null, file_sha256: null,
      created_at: now, updated_at: now, deleted_at: null,
    })));
  }

  // Consents: about 40 % of tenants, 1-3 purposes each, a few withdrawn.
  const tenants = await activeTenants(trx);
  const demoTenant = (ctx.ids as { demoTenantId?: number }).demoTenantId;
  const consents = [];
  for (const t of tenants) {
    if (t.id !== demoTenant && !rng.chance(0.4)) continue;
    const purposes = t.id === demoTenant ? ['marketing_email', 'sms_updates'] : [...new Set(Array.from({ length: rng.int(1, 3) }, () => rng.pick(CONSENT_PURPOSES)))];
    for (const purpose of purposes) {
      const given = new Date(now.getTime() - rng.int(10, 700) * DAY_MS);
      const withdrawn = t.id !== demoTenant && rng.chance(0.15) ? new Date(given.getTime() + rng.int(1, 9) * DAY_MS) : null;
      consents.push({
        uuid: uuidOf(ctx), agency_id: t.agency_id, tenant_id: t.id, user_id: null, purpose, source: rng.pick(CONSENT_SOURCES),
        given_at: given, withdrawn_at: withdrawn, withdrawn_source: withdrawn ? rng.pick(CONSENT_SOURCES) : null,
        recorded_by_user_id: null, created_at: given,
      });
    }
  }
  await insertRows(trx, 'gdpr_consents', consents);
  ctx.log(`demo: ${certs.length} certificates, ${coverageRows} coverage districts, ${consents.length} consents`);
}
