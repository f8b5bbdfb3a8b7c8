/** GET /api/jobs/{uuid}/weather (docs/insight.md "Weather"). */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ok, responses } from '../../../http/envelope.ts';
import { requireAuth, type App } from '../../../http/route-types.ts';
import { JobWeather, JobWeatherParams } from './weather.schemas.ts';
import { jobWeather } from './weather.service.ts';

/** Registers the weather route. */
export function weatherRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/jobs/{uuid}/weather: the forecast at the property on the visit day. */
    app.get('/api/jobs/:uuid/weather', {
      config: { permission: 'api.weather.view' },
      schema: {
        tags: ['weather'],
        summary: "Weather forecast of a job's visit",
        description:
          'Open-Meteo daily forecast at the property (coordinates of the address, else postcodes.io) for the London date of ' +
          'scheduled_for, cached. weather_risk: an outdoor trade (roofing, gutters, external painting, landscaping) and heavy rain ' +
          'or strong wind (thresholds in configuration). When a provider is down, or there is no visit date, address or ' +
          'forecast for that day, weather is null and reason says why; the answer is still 200. 404 for a job the caller cannot open.',
        params: JobWeatherParams,
        response: responses(DataEnvelope(JobWeather), [400, 401, 403, 404, 429]),
      },
      handler: async (request) => ok(await jobWeather(deps, requireAuth(request), request.params.uuid), 'Weather retrieved'),
    });
  };
}
