/** The weather module's public door (docs/insight.md "Weather"). */
export { weatherRoutes } from './weather.routes.ts';
export { jobWeather, forecastAt, risksOf, weatherBlocks } from './weather.service.ts';
export { WeatherBlock } from './weather.schemas.ts';
