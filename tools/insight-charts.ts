/**
 * Renders the charts of docs/insight.md from a running Caretaker's analytics (the demo): an SVG
 * drawn here (no chart library: two bar charts), converted to PNG by headless Chromium.
 *
 *   node tools/insight-charts.ts http://127.0.0.1:3917 admin@northwind.test 'password'
 *
 * Writes docs/images/insight-volumes.svg|png and docs/images/insight-time-to-complete.svg|png.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const [base = 'http://127.0.0.1:3917', email = 'admin@northwind.test', password = 'caretaker-demo'] = process.argv.slice(2);
const OUT = path.resolve('docs/images');
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

interface Row { period: string; group: { key: string; label: string }; created: number; completed: number; cancelled: number; time_to_complete: { median_s: number | null; p90_s: number | null } }

async function get(token: string, url: string): Promise<Row[]> {
  const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Row[] }).data;
}

/** A grouped bar chart: one group per category, one bar per series. */
function bars(title: string, categories: string[], series: Array<{ name: string; colour: string; values: number[] }>, unit: string): string {
  const W = 900, H = 420, L = 60, R = 20, T = 50, B = 70;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const step = Math.pow(10, Math.floor(Math.log10(max)));
  const top = Math.ceil(max / step) * step;
  const gw = (W - L - R) / categories.length;
  const bw = (gw * 0.8) / series.length;
  const y = (v: number) => T + (H - T - B) * (1 - v / top);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${L}" y="28" font-size="16" font-weight="bold">${esc(title)}</text>`,
  ];
  for (let i = 0; i <= 4; i += 1) {
    const v = (top / 4) * i;
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`, `<text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`);
  }
  parts.push(`<text x="14" y="${T + (H - T - B) / 2}" transform="rotate(-90 14 ${T + (H - T - B) / 2})" text-anchor="middle">${esc(unit)}</text>`);
  categories.forEach((c, i) => {
    const x0 = L + i * gw + gw * 0.1;
    series.forEach((s, k) => {
      const v = s.values[i] ?? 0;
      parts.push(`<rect x="${(x0 + k * bw).toFixed(1)}" y="${y(v).toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${(H - B - y(v)).toFixed(1)}" fill="${s.colour}"><title>${esc(`${s.name} ${c}: ${v}`)}</title></rect>`);
    });
    parts.push(`<text x="${L + i * gw + gw / 2}" y="${H - B + 18}" text-anchor="middle">${esc(c)}</text>`);
  });
  series.forEach((s, k) => {
    parts.push(`<rect x="${L + k * 150}" y="${H - 28}" width="12" height="12" fill="${s.colour}"/>`, `<text x="${L + k * 150 + 18}" y="${H - 18}">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

function png(name: string, svg: string): void {
  const svgPath = path.join(OUT, `${name}.svg`);
  writeFileSync(svgPath, svg);
  execFileSync('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', `--screenshot=${path.join(OUT, `${name}.png`)}`, '--window-size=900,420', `file://${svgPath}`], { stdio: 'ignore' });
}

const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
const token = ((await login.json()) as { token: string }).token;
const today = new Date().toISOString().slice(0, 10);
const from = new Date(Date.now() - 182 * 86_400_000).toISOString().slice(0, 10);

const months = await get(token, `/api/analytics/jobs?from_date=${from}&to_date=${today}&interval=month&limit=200`);
png('insight-volumes', bars('Northwind: jobs created, completed and cancelled per month', months.map((r) => r.period.slice(0, 7)), [
  { name: 'created', colour: '#3b6fb6', values: months.map((r) => r.created) },
  { name: 'completed', colour: '#3f9b5a', values: months.map((r) => r.completed) },
  { name: 'cancelled', colour: '#c4553f', values: months.map((r) => r.cancelled) },
], 'jobs'));

const byPriority = await get(token, `/api/analytics/jobs?from_date=${from}&to_date=${today}&interval=month&group_by=priority&limit=200`);
const priorities = [...new Set(byPriority.map((r) => r.group.label))].sort();
const hours = (s: number | null) => (s === null ? 0 : Math.round(s / 360) / 10);
// One bar per priority: the median over the months with completions (the API gives it per month).
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)]! : 0; };
png('insight-time-to-complete', bars('Northwind: time to complete by priority (median and p90 of the monthly figures, hours)', priorities, [
  { name: 'median', colour: '#3b6fb6', values: priorities.map((p) => median(byPriority.filter((r) => r.group.label === p && r.time_to_complete.median_s !== null).map((r) => hours(r.time_to_complete.median_s)))) },
  { name: '90th percentile', colour: '#e0a030', values: priorities.map((p) => median(byPriority.filter((r) => r.group.label === p && r.time_to_complete.p90_s !== null).map((r) => hours(r.time_to_complete.p90_s)))) },
], 'hours'));
console.log(`wrote ${OUT}/insight-volumes.png and insight-time-to-complete.png`);
