/**
 * The postcode lookup of agencies that enable it (docs/tenants.md "Postcode lookup"): postcodes.io
 * `GET /postcodes/{postcode}` (the service the weather already uses, docs/insight.md "Weather";
 * base URL CARETAKER_WEATHER_GEOCODE_URL, deadline CARETAKER_WEATHER_TIMEOUT_MS), its answer
 * checked against the documented shape before use:
 * 200 `{ status: 200, result: { postcode, latitude, longitude, admin_district, ... } }` and
 * 404 `{ status: 404, error: "Postcode not found" | "Invalid postcode" }`.
 * postcodes.io carries no Royal Mail post town (that is PAF's, under licence); its local authority
 * district (`admin_district`, e.g. "Leeds") fills the town only when the writer left it empty.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

const Text = Type.Union([Type.String(), Type.Null()]);
const Num = Type.Union([Type.Number(), Type.Null()]);
const Answer = Type.Object({
  status: Type.Literal(200),
  result: Type.Object({ postcode: Type.String(), latitude: Num, longitude: Num, admin_district: Type.Optional(Text), admin_county: Type.Optional(Text) }),
});

/** What a lookup found: `found: false` for a postcode postcodes.io does not know (404). */
export type PostcodeFacts =
  | { found: true; postcode: string; latitude: number | null; longitude: number | null; district: string | null; county: string | null }
  | { found: false };

/**
 * Looks one postcode up.
 * @param baseUrl postcodes.io's base URL, without a trailing slash
 * @param postcode a normalised postcode ("LS1 7BN")
 * @param timeoutMs deadline of the whole exchange, milliseconds
 * @returns the facts, or `{ found: false }` on 404; null when the service is down, late or answers
 *   outside its documented shape (the format check alone then stands)
 */
export async function lookUpPostcode(baseUrl: string, postcode: string, timeoutMs: number): Promise<PostcodeFacts | null> {
  let res: Response;
  let body: unknown;
  try {
    res = await fetch(`${baseUrl}/postcodes/${encodeURIComponent(postcode.replace(/\s+/g, ''))}`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    body = await res.json();
  } catch {
    return null;
  }
  if (res.status === 404) return { found: false };
  if (res.status !== 200 || !Value.Check(Answer, body)) return null;
  const r = (body as Static<typeof Answer>).result;
  return { found: true, postcode: r.postcode, latitude: r.latitude, longitude: r.longitude, district: r.admin_district ?? null, county: r.admin_county ?? null };
}
