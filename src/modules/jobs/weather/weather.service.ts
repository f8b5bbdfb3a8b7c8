/**
 * Weather at a job's visit (docs/insight.md "Weather"): the property's coordinates (stored on the
 * address, else geocoded from the postcode through postcodes.io), the Open-Meteo daily forecast
 * for the London date of scheduled_for, both cached in memory (TTLs in config). A visit day with
 * precipitation_sum >= heavyRainMm or wind gusts >= strongWindKmh is a risk; `weather_risk` is
 * set for outdoor trades only: true or false when the day's weather is known, null (unknown) when it
 * is not. A provider that is down never fails the request: weather is null with a reason; a past
 * day, or one beyond the forecast, is `outside_forecast_range` whatever the providers' state.
 */
import type { AppDeps } from '../../../app-deps.ts';
import type { AuthContext } from '../../../core/auth-context.ts';
import { notFound } from '../../../core/errors.ts';
import { addDays, daysBetween, londonDate } from '../../../lib/london-time.ts';
import { jobScope } from '../jobs/index.ts';
import { TtlCache } from './cache.ts';
import { dailyForecast, geocodePostcode, ProviderError, type Forecast } from './providers.ts';
import { findJobForWeather } from './weather.repository.ts';
import type { DayForecastDto, JobWeatherDto, WeatherBlockDto } from './weather.schemas.ts';

/** Days ahead Open-Meteo forecasts (today + 15). */
export const FORECAST_DAYS = 16;

type Point = { latitude: number; longitude: number };
interface Caches {
  geo: TtlCache<Point | null>;
  forecast: TtlCache<Forecast>;
  /** Set for DOWN_S seconds after a provider failed, so a page of entries does not wait on each. */
  down: TtlCache<true>;
}
/** Seconds a failed provider is not asked again. */
export const DOWN_S = 60;
const cachesByApp = new WeakMap<object, Caches>();
function caches(deps: AppDeps): Caches {
  let c = cachesByApp.get(deps);
  if (!c) {
    c = { geo: new TtlCache(), forecast: new TtlCache(), down: new TtlCache(1) };
    cachesByApp.set(deps, c);
  }
  return c;
}

const WMO: Array<[number, string]> = [
  [0, 'Clear sky'], [3, 'Partly cloudy'], [48, 'Fog'], [57, 'Drizzle'], [67, 'Rain'], [77, 'Snow'],
  [82, 'Rain showers'], [86, 'Snow showers'], [99, 'Thunderstorm'],
];
/** Plain words for a WMO weather code. */
export function wmoSummary(code: number | null): string {
  if (code === null) return 'Unknown';
  return WMO.find(([max]) => code <= max)?.[1] ?? 'Unknown';
}

/** The forecast of one day, or null when the answer does not cover it. */
export function dayOf(f: Forecast, date: string): DayForecastDto | null {
  const i = f.daily.time.indexOf(date);
  if (i < 0) return null;
  const d = f.daily;
  const code = d.weather_code[i] ?? null;
  return {
    date, weather_code: code, summary: wmoSummary(code), temperature_max_c: d.temperature_2m_max[i] ?? null,
    temperature_min_c: d.temperature_2m_min[i] ?? null, precipitation_mm: d.precipitation_sum[i] ?? null,
    precipitation_probability_pct: d.precipitation_probability_max[i] ?? null, wind_speed_max_kmh: d.wind_speed_10m_max[i] ?? null,
    wind_gusts_max_kmh: d.wind_gusts_10m_max[i] ?? null, source: 'open-meteo',
  };
}

/** The risks of a day against the configured thresholds. */
export function risksOf(deps: AppDeps, day: DayForecastDto): Array<'heavy_rain' | 'strong_wind'> {
  const { heavyRainMm, strongWindKmh } = deps.config.weather;
  const out: Array<'heavy_rain' | 'strong_wind'> = [];
  if ((day.precipitation_mm ?? 0) >= heavyRainMm) out.push('heavy_rain');
  if (Math.max(day.wind_gusts_max_kmh ?? 0, day.wind_speed_max_kmh ?? 0) >= strongWindKmh) out.push('strong_wind');
  return out;
}

/**
 * The forecast for a place on a London date, through the caches.
 * @returns { weather } or { weather: null, reason }
 */
export async function forecastAt(
  deps: AppDeps,
  place: { postcode: string | null; latitude: number | null; longitude: number | null },
  date: string,
): Promise<{ point: (Point & { postcode: string }) | null; weather: DayForecastDto | null; reason: string | null }> {
  const { config, clock } = deps;
  const w = config.weather;
  const now = clock.now();
  const c = caches(deps);
  let point: Point | null = place.latitude !== null && place.longitude !== null ? { latitude: place.latitude, longitude: place.longitude } : null;
  // A day the forecast cannot cover (past, or too far ahead) is out of range whatever the providers'
  // state: decided before any provider is asked.
  const today = londonDate(now);
  const ahead = daysBetween(today, date);
  if (ahead < 0 || ahead >= FORECAST_DAYS) {
    const known = point ?? (place.postcode ? c.geo.get(place.postcode.toUpperCase().replace(/\s+/g, ''), now) ?? null : null);
    return { point: known ? { postcode: place.postcode ?? '', ...known } : null, weather: null, reason: 'outside_forecast_range' };
  }
  if (c.down.get('any', now)) return { point: null, weather: null, reason: 'provider_unavailable' };
  try {
    if (!point) {
      if (!place.postcode) return { point: null, weather: null, reason: 'no_address' };
      const key = place.postcode.toUpperCase().replace(/\s+/g, '');
      let geo = c.geo.get(key, now);
      if (geo === undefined) {
        geo = await geocodePostcode(w.geocodeUrl, place.postcode, w.timeoutMs);
        c.geo.set(key, geo, w.geocodeTtlS, now);
      }
      if (!geo) return { point: null, weather: null, reason: 'postcode_not_found' };
      point = geo;
    }
    const located = { postcode: place.postcode ?? '', ...point };
    const key = `${point.latitude.toFixed(2)},${point.longitude.toFixed(2)},${today}`;
    let f = c.forecast.get(key, now);
    if (!f) {
      f = await dailyForecast(w.forecastUrl, point, today, addDays(today, FORECAST_DAYS - 1), w.timeoutMs);
      c.forecast.set(key, f, w.forecastTtlS, now);
    }
    const day = dayOf(f, date);
    return { point: located, weather: day, reason: day ? null : 'outside_forecast_range' };
  } catch (err) {
    if (err instanceof ProviderError) {
      c.down.set('any', true, DOWN_S, now);
      return { point: null, weather: null, reason: 'provider_unavailable' };
    }
    throw err;
  }
}

/**
 * GET /api/jobs/{uuid}/weather.
 * @throws 404 'Job not found' when the caller may not open the job
 */
export async function jobWeather(deps: AppDeps, auth: AuthContext, uuid: string): Promise<JobWeatherDto> {
  const job = await findJobForWeather(deps.db, jobScope(auth), uuid);
  if (!job) throw notFound('Job');
  const outdoor = job.outdoor === true;
  const out: JobWeatherDto = {
    job_uuid: job.uuid,
    reference: job.reference,
    trade: job.trade_code ? { code: job.trade_code, name: job.trade_name ?? job.trade_code, outdoor } : null,
    visit_date: job.scheduled_for ? londonDate(new Date(job.scheduled_for)) : null,
    location: null,
    weather: null,
    // An outdoor job whose visit-day weather is unknown has an unknown risk (null), not none.
    weather_risk: outdoor ? null : false,
    risks: [],
    reason: null,
  };
  if (!out.visit_date) return { ...out, reason: 'no_visit_date' };
  const r = await forecastAt(deps, job, out.visit_date);
  out.location = r.point;
  out.weather = r.weather;
  out.reason = r.reason;
  if (r.weather) {
    out.risks = risksOf(deps, r.weather);
    out.weather_risk = outdoor && out.risks.length > 0;
  }
  return out;
}

/**
 * The weather block of calendar entries: for each item of an outdoor trade, the forecast of its
 * day with the risk flags (or weather null and a reason); undefined for other items.
 */
export async function weatherBlocks(
  deps: AppDeps,
  items: Array<{ outdoor: boolean | null; postcode: string | null; latitude: number | null; longitude: number | null; date: string }>,
): Promise<Array<WeatherBlockDto | undefined>> {
  return Promise.all(items.map(async (it) => {
    if (it.outdoor !== true) return undefined;
    const r = await forecastAt(deps, it, it.date);
    const risks = r.weather ? risksOf(deps, r.weather) : [];
    return { weather: r.weather, weather_risk: r.weather ? risks.length > 0 : null, risks, reason: r.reason };
  }));
}
