/**
 * A local stand-in for postcodes.io and Open-Meteo answering in their formats, for demos on a
 * machine without internet access (docs/insight.md "Weather"). Not for production: coordinates
 * are derived from the postcode's letters and the forecast is a fixed pattern (rain and gusts on
 * every third day).
 *
 *   node tools/weather-stub.ts 3918
 *   CARETAKER_WEATHER_FORECAST_URL=http://127.0.0.1:3918 CARETAKER_WEATHER_GEOCODE_URL=http://127.0.0.1:3918 npm start
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 3918);
createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://stub');
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  if (url.pathname.startsWith('/postcodes/')) {
    const pc = decodeURIComponent(url.pathname.slice(11)).toUpperCase().replace(/\s+/g, '');
    if (!/^[A-Z]{1,2}[0-9][A-Z0-9]?[0-9][A-Z]{2}$/.test(pc)) return send(404, { status: 404, error: 'Invalid postcode' });
    const h = [...pc].reduce((a, c) => (a * 31 + c.charCodeAt(0)) % 10_000, 7);
    return send(200, { status: 200, result: { postcode: `${pc.slice(0, -3)} ${pc.slice(-3)}`, quality: 1, country: 'England', latitude: 53.7 + (h % 300) / 1000, longitude: -1.6 + (h % 500) / 1000 } });
  }
  if (url.pathname === '/v1/forecast') {
    const start = url.searchParams.get('start_date') ?? new Date().toISOString().slice(0, 10);
    const end = url.searchParams.get('end_date') ?? start;
    const days: string[] = [];
    for (let d = Date.parse(`${start}T00:00:00Z`); d <= Date.parse(`${end}T00:00:00Z`); d += 86_400_000) days.push(new Date(d).toISOString().slice(0, 10));
    const wet = (i: number) => i % 3 === 1;
    return send(200, {
      latitude: Number(url.searchParams.get('latitude')), longitude: Number(url.searchParams.get('longitude')), generationtime_ms: 0.1,
      utc_offset_seconds: 0, timezone: 'Europe/London', timezone_abbreviation: 'GMT', elevation: 60,
      daily_units: { time: 'iso8601', weather_code: 'wmo code', temperature_2m_max: '°C', temperature_2m_min: '°C', precipitation_sum: 'mm', precipitation_probability_max: '%', wind_speed_10m_max: 'km/h', wind_gusts_10m_max: 'km/h' },
      daily: {
        time: days,
        weather_code: days.map((_, i) => (wet(i) ? 63 : 2)),
        temperature_2m_max: days.map((_, i) => 8 + (i % 4)),
        temperature_2m_min: days.map((_, i) => 2 + (i % 3)),
        precipitation_sum: days.map((_, i) => (wet(i) ? 14.6 : 0.2)),
        precipitation_probability_max: days.map((_, i) => (wet(i) ? 90 : 15)),
        wind_speed_10m_max: days.map((_, i) => (wet(i) ? 38.5 : 17.2)),
        wind_gusts_10m_max: days.map((_, i) => (wet(i) ? 67.0 : 31.7)),
      },
    });
  }
  return send(404, { error: true, reason: 'Not found' });
}).listen(port, '127.0.0.1', () => console.log(`weather stub on http://127.0.0.1:${port}`));
