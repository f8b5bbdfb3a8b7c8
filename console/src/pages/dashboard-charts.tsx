/**
 * The dashboard's chart drawings (docs/console.md "Charts"), on recharts (SVG, sized to its box so
 * it fits a 390 px phone). Loaded with React.lazy by pages/dashboard.tsx only, so no other page
 * downloads the chart library. The drawings are hidden from assistive technology and take no focus
 * (`accessibilityLayer` off): each chart's figures are in a table next to it (its text alternative).
 */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** One point of a chart: its label on the x axis and one number per series. */
export type ChartPoint = { label: string } & Record<string, number | string>;

/** One series: its key in the points, its name in the legend and its colour. */
export interface ChartSeries {
  key: string;
  name: string;
  colour: string;
}

/** A line chart (`kind` line) or a bar chart (`kind` bar) of `points`, one line or bar per series. */
export default function Chart({ kind, points, series }: { kind: 'line' | 'bar'; points: ChartPoint[]; series: ChartSeries[] }) {
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="#d0d7de" />
      <XAxis dataKey="label" tick={{ fontSize: 12 }} interval="preserveStartEnd" minTickGap={8} />
      <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={32} />
      <Tooltip />
      {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 13 }} /> : null}
    </>
  );
  return (
    <ResponsiveContainer width="100%" height="100%">
      {kind === 'line' ? (
        <LineChart data={points} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          {axes}
          {series.map((s) => (
            <Line key={s.key} type="monotone" dataKey={s.key} name={s.name} stroke={s.colour} strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
          ))}
        </LineChart>
      ) : (
        <BarChart data={points} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          {axes}
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.colour} isAnimationActive={false} />
          ))}
        </BarChart>
      )}
    </ResponsiveContainer>
  );
}
