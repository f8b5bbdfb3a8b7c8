/**
 * GET /api/jobs/{uuid}/weather against local servers answering as postcodes.io and Open-Meteo do
 * (same paths, parameters and JSON shapes): forecast and risk for outdoor trades, caching, unknown
 * postcodes, and a provider that is down (weather null with a reason, the request still 200).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { addJob, insightWorld } from './fixture.ts';

/** One local server playing both providers; counts requests per path kind. */
function providers() {
  const hits = { geocode: 0, forecast: 0 };
  const seen: URL[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname.startsWith('/postcodes/')) {
      hits.geocode += 1;
      const pc = decodeURIComponent(url.pathname.slice('/postcodes/'.length)).toUpperCase();
      if (pc === 'LS62AB') {
        return send(200, { status: 200, result: { postcode: 'LS6 2AB', quality: 1, eastings: 428000, northings: 435700, country: 'England', longitude: -1.5737, latitude: 53.8192, admin_district: 'Leeds' } });
      }
      return send(404, { status: 404, error: 'Invalid postcode' });
    }
    if (url.pathname === '/v1/forecast') {
      hits.forecast += 1;
      const start = url.searchParams.get('start_date')!;
      const days = Array.from({ length: 16 }, (_, i) => new Date(Date.parse(`${start}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
      const rainy = (d: string) => d === '2026-11-25';
      return send(200, {
        latitude: Number(url.searchParams.get('latitude')), longitude: Number(url.searchParams.get('longitude')),
        generationtime_ms: 0.2, utc_offset_seconds: 0, timezone: 'Europe/London', timezone_abbreviation: 'GMT', elevation: 74,
        daily_units: { time: 'iso8601', weather_code: 'wmo code', temperature_2m_max: '°C', temperature_2m_min: '°C', precipitation_sum: 'mm', precipitation_probability_max: '%', wind_speed_10m_max: 'km/h', wind_gusts_10m_max: 'km/h' },
        daily: {
          time: days,
          weather_code: days.map((d) => (rainy(d) ? 65 : 3)),
          temperature_2m_max: days.map(() => 9.4),
          temperature_2m_min: days.map(() => 3.1),
          precipitation_sum: days.map((d) => (rainy(d) ? 18.2 : 0.4)),
          precipitation_probability_max: days.map((d) => (rainy(d) ? 95 : 10)),
          wind_speed_10m_max: days.map(() => 22.3),
          wind_gusts_10m_max: days.map((d) => (rainy(d) ? 71.6 : 35.2)),
        },
      });
    }
    return send(404, { error: true, reason: 'Not found' });
  });
  return { server, hits, seen };
}

let t: TestApp;
let w: Awaited<ReturnType<typeof insightWorld>>;
let p: ReturnType<typeof providers>;
let roofJob: { uuid: string };
let dryRoofJob: { uuid: string };
let unknownPostcodeJob: { uuid: string };

beforeAll(async () => {
  p = providers();
  await new Promise<void>((r) => p.server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(p.server.address() as AddressInfo).port}`;
  t = await buildTestApp({ CARETAKER_WEATHER_FORECAST_URL: base, CARETAKER_WEATHER_GEOCODE_URL: base, CARETAKER_WEATHER_TIMEOUT_MS: '2000' });
  w = await insightWorld(t);
  const roofing = await t.db.selectFrom('trades').select('id').where('code', '=', 'roofing').where('agency_id', 'is', null).executeTakeFirstOrThrow();
  const now = new Date();
  const odd = await t.db.insertInto('addresses').values({ uuid: crypto.randomUUID(), agency_id: w.agencyA.id, branch_id: w.a1.id, line1: '1 Nowhere Lane', town: 'Leeds', postcode: 'ZZ9 9ZZ', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
  roofJob = await addJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, statusId: 5, priority: 3, tradeId: roofing.id, addressId: w.address.id, createdAt: '2026-11-20T09:00:00Z', scheduledFor: '2026-11-25T09:00:00Z', title: 'Slipped roof tiles' });
  dryRoofJob = await addJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, statusId: 5, priority: 3, tradeId: roofing.id, addressId: w.address.id, createdAt: '2026-11-20T09:00:00Z', scheduledFor: '2026-11-26T09:00:00Z' });
  unknownPostcodeJob = await addJob(t.db, { agencyId: w.agencyA.id, branchId: w.a1.id, statusId: 5, priority: 3, tradeId: roofing.id, addressId: odd.id, createdAt: '2026-11-20T09:00:00Z', scheduledFor: '2026-11-26T09:00:00Z' });
});
afterAll(async () => {
  await t.close();
  p.server.close();
});

const weather = async (uuid: string, client = w.adminA.client) => {
  const res = await client.get(`/api/jobs/${uuid}/weather`);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

describe('GET /api/jobs/{uuid}/weather', () => {
  it('flags an outdoor job whose visit day forecasts heavy rain and strong wind, from the providers\' answers', async () => {
    const d = await weather(roofJob.uuid);
    expect(d).toMatchObject({
      trade: { code: 'roofing', name: 'Roofing', outdoor: true },
      visit_date: '2026-11-25',
      location: { postcode: 'LS6 2AB', latitude: 53.8192, longitude: -1.5737 },
      weather: { date: '2026-11-25', weather_code: 65, summary: 'Rain', precipitation_mm: 18.2, wind_gusts_max_kmh: 71.6, source: 'open-meteo' },
      weather_risk: true,
      risks: ['heavy_rain', 'strong_wind'],
      reason: null,
    });
    const q = p.seen.find((u) => u.pathname === '/v1/forecast')!.searchParams;
    expect(q.get('timezone')).toBe('Europe/London');
    expect(q.get('start_date')).toBe('2026-11-24');
    expect(q.get('daily')).toContain('precipitation_sum');
  });

  it('does not flag a dry day, nor an indoor trade on a wet day, and serves repeats from the cache', async () => {
    const before = { ...p.hits };
    expect(await weather(dryRoofJob.uuid)).toMatchObject({ weather: { precipitation_mm: 0.4 }, weather_risk: false, risks: [] });
    const indoor = await weather(w.job.uuid); // no trade, same address, visit on the 25th (wet)
    expect(indoor).toMatchObject({ trade: null, weather: { date: '2026-11-25' }, weather_risk: false, risks: ['heavy_rain', 'strong_wind'] });
    expect(p.hits).toEqual(before);
  });

  it('answers null weather with a reason for an unknown postcode, no visit date or a day out of range', async () => {
    // An outdoor job whose weather is unknown: the risk is unknown (null), not false.
    expect(await weather(unknownPostcodeJob.uuid)).toMatchObject({ trade: { outdoor: true }, weather: null, weather_risk: null, reason: 'postcode_not_found' });
    expect(await weather(w.j1.uuid)).toMatchObject({ visit_date: null, weather: null, reason: 'no_visit_date' });
    expect(await weather(w.j2.uuid)).toMatchObject({ visit_date: '2026-11-20', weather: null, reason: 'outside_forecast_range' });
  });

  it('keeps visibility: another agency and an unrelated contractor get 404', async () => {
    expect((await w.adminB.client.get(`/api/jobs/${roofJob.uuid}/weather`)).statusCode).toBe(404);
    expect((await w.otherContractor.client.get(`/api/jobs/${w.job.uuid}/weather`)).statusCode).toBe(404);
    expect((await weather(w.job.uuid, w.contractor.client)).weather.date).toBe('2026-11-25');
    expect((await w.adminA.client.get('/api/jobs/not-a-uuid/weather')).statusCode).toBe(400);
  });

  it('adds a weather block to calendar entries of outdoor trades only', async () => {
    const res = await w.adminA.client.get('/api/calendar?from_date=2026-11-25&to_date=2026-11-26');
    expect(res.statusCode).toBe(200);
    const entries = res.json().data as Array<{ job_uuid: string; weather?: any }>;
    const roof = entries.find((e) => e.job_uuid === roofJob.uuid)!;
    expect(roof.weather).toMatchObject({ weather: { date: '2026-11-25', precipitation_mm: 18.2 }, weather_risk: true, risks: ['heavy_rain', 'strong_wind'], reason: null });
    expect(entries.find((e) => e.job_uuid === dryRoofJob.uuid)!.weather).toMatchObject({ weather_risk: false, risks: [] });
    expect(entries.find((e) => e.job_uuid === w.job.uuid)).not.toHaveProperty('weather');
  });

  it('still answers 200 with weather null and a reason when the provider is down', async () => {
    await new Promise<void>((r) => p.server.close(() => r()));
    t.clock.advance(2 * 3600); // forecast cache (1 h) expired
    const d = await weather(roofJob.uuid);
    expect(d).toMatchObject({ job_uuid: roofJob.uuid, visit_date: '2026-11-25', weather: null, weather_risk: null, reason: 'provider_unavailable' });
    // A past visit is out of the forecast's range, whatever the providers' state.
    expect(await weather(w.j2.uuid)).toMatchObject({ visit_date: '2026-11-20', weather: null, reason: 'outside_forecast_range' });
    const cal = await w.adminA.client.get('/api/calendar?from_date=2026-11-25&to_date=2026-11-26');
    expect(cal.statusCode).toBe(200);
    const roof = (cal.json().data as Array<{ job_uuid: string; weather?: any }>).find((e) => e.job_uuid === roofJob.uuid)!;
    expect(roof.weather).toEqual({ weather: null, weather_risk: null, risks: [], reason: 'provider_unavailable' });
  });
});
