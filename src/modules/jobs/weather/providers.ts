/**
 * Clients of the two outside services (docs/insight.md "Weather"), each answer checked against
 * its documented shape before use:
 * - postcodes.io `GET /postcodes/{postcode}` -> `{ status: 200, result: { postcode, latitude, longitude, ... } }`,
 *   404 `{ status: 404, error: "Invalid postcode" | "Postcode not found" }`;
 * - Open-Meteo `GET /v1/forecast?latitude&longitude&daily=...&timezone=Europe/London&start_date&end_date`
 *   -> `{ latitude, longitude, timezone, daily_units, daily: { time: [...], <variable>: [...] } }`,
 *   400 `{ error: true, reason }`.
 * Any other answer, a timeout or a refused connection is a ProviderError.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/** A provider is down, timed out or answered outside its documented shape (weather: null, reason provider_unavailable). */
export class ProviderError extends Error {}

const Num = Type.Union([Type.Number(), Type.Null()]);
const PostcodeAnswer = Type.Object({
  status: Type.Literal(200),
  result: Type.Object({ postcode: Type.String(), latitude: Num, longitude: Num }),
});

/** Daily variables requested from Open-Meteo (units: °C, mm, %, km/h, WMO code). */
export const DAILY = [
  'weather_code', 'temperature_2m_max', 'temperature_2m_min', 'precipitation_sum',
  'precipitation_probability_max', 'wind_speed_10m_max', 'wind_gusts_10m_max',
] as const;

const ForecastAnswer = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  daily: Type.Object({
    time: Type.Array(Type.String()),
    weather_code: Type.Array(Num),
    temperature_2m_max: Type.Array(Num),
    temperature_2m_min: Type.Array(Num),
    precipitation_sum: Type.Array(Num),
    precipitation_probability_max: Type.Array(Num),
    wind_speed_10m_max: Type.Array(Num),
    wind_gusts_10m_max: Type.Array(Num),
  }),
});
/** Open-Meteo's daily answer, one array per variable aligned with `daily.time` (London dates). */
export type Forecast = Static<typeof ForecastAnswer>;

async function getJson(url: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (err) {
    throw new ProviderError(`unreachable (${(err as Error).name})`);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ProviderError(`answered ${res.status} without JSON`);
  }
  return { status: res.status, body };
}

/**
 * Coordinates of a UK postcode.
 * @returns { latitude, longitude }, or null when postcodes.io does not know the postcode (404)
 * @throws ProviderError when the service is down or answers outside its documented shape
 */
export async function geocodePostcode(baseUrl: string, postcode: string, timeoutMs: number) {
  const { status, body } = await getJson(`${baseUrl}/postcodes/${encodeURIComponent(postcode.replace(/\s+/g, ''))}`, timeoutMs);
  if (status === 404) return null;
  if (status !== 200 || !Value.Check(PostcodeAnswer, body)) throw new ProviderError(`postcodes.io answered ${status}`);
  const r = (body as Static<typeof PostcodeAnswer>).result;
  if (r.latitude === null || r.longitude === null) return null;
  return { latitude: r.latitude, longitude: r.longitude };
}

/**
 * Daily forecast at a point for [startDate, endDate] (London dates).
 * @throws ProviderError when the service is down or answers outside its documented shape
 */
export async function dailyForecast(baseUrl: string, at: { latitude: number; longitude: number }, startDate: string, endDate: string, timeoutMs: number): Promise<Forecast> {
  const qs = new URLSearchParams({
    latitude: at.latitude.toFixed(4),
    longitude: at.longitude.toFixed(4),
    daily: DAILY.join(','),
    timezone: 'Europe/London',
    start_date: startDate,
    end_date: endDate,
  });
  const { status, body } = await getJson(`${baseUrl}/v1/forecast?${qs.toString()}`, timeoutMs);
  if (status !== 200 || !Value.Check(ForecastAnswer, body)) throw new ProviderError(`Open-Meteo answered ${status}`);
  return body as Forecast;
}
