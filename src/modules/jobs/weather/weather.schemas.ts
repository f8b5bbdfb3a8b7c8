/** Schemas of GET /api/jobs/{uuid}/weather (docs/insight.md "Weather"). */
import { Type, type Static } from 'typebox';
import { IsoDate, Uuid } from '../../../http/schema-primitives.ts';

const N = Type.Union([Type.Number(), Type.Null()]);

export const DayForecast = Type.Object({
  date: IsoDate('London date of the visit'),
  weather_code: Type.Union([Type.Integer(), Type.Null()], { description: 'WMO weather interpretation code' }),
  summary: Type.String(),
  temperature_max_c: N,
  temperature_min_c: N,
  precipitation_mm: N,
  precipitation_probability_pct: N,
  wind_speed_max_kmh: N,
  wind_gusts_max_kmh: N,
  source: Type.Literal('open-meteo'),
});
export type DayForecastDto = Static<typeof DayForecast>;

export const JobWeather = Type.Object({
  job_uuid: Uuid(),
  reference: Type.String(),
  trade: Type.Union([Type.Object({ code: Type.String(), name: Type.String(), outdoor: Type.Boolean() }), Type.Null()]),
  visit_date: Type.Union([IsoDate(), Type.Null()]),
  location: Type.Union([Type.Object({ postcode: Type.String(), latitude: Type.Number(), longitude: Type.Number() }), Type.Null()]),
  weather: Type.Union([DayForecast, Type.Null()]),
  weather_risk: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'outdoor trade and the visit day reaches a threshold (heavy rain or strong wind); null for an outdoor trade whose visit-day weather is unknown (see reason); false for other trades',
  }),
  risks: Type.Array(Type.Union([Type.Literal('heavy_rain'), Type.Literal('strong_wind')])),
  reason: Type.Union([Type.String(), Type.Null()], {
    description: 'why weather is null: no_visit_date, no_address, postcode_not_found, outside_forecast_range, provider_unavailable',
  }),
});
export type JobWeatherDto = Static<typeof JobWeather>;

export const JobWeatherParams = Type.Object({ uuid: Uuid() }, { additionalProperties: false });

/** The weather block of a calendar entry of an outdoor trade. */
export const WeatherBlock = Type.Object({
  weather: Type.Union([DayForecast, Type.Null()]),
  weather_risk: Type.Union([Type.Boolean(), Type.Null()], { description: 'null when the weather is unknown (see reason)' }),
  risks: Type.Array(Type.Union([Type.Literal('heavy_rain'), Type.Literal('strong_wind')])),
  reason: Type.Union([Type.String(), Type.Null()]),
}, { description: 'outdoor trades only (roofing, gutters, external painting, landscaping): the forecast of the visit day' });
export type WeatherBlockDto = Static<typeof WeatherBlock>;
