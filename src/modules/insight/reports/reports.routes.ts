/**
 * Reports (docs/insight.md "Reports"): GET /api/reports (the catalogue) and one download route per
 * named report, GET /api/reports/{name}?format=csv|xlsx&<filters>, streamed.
 */
import { Type } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { ListEnvelope, fileResponse, list, responses } from '../../../http/envelope.ts';
import { requireAuth, type App } from '../../../http/route-types.ts';
import { forbidden } from '../../../core/errors.ts';
import { acquireHeavySlot } from '../../../core/heavy-work.ts';
import { REPORTS, mayDownload } from './reports.catalogue.ts';
import { CONTENT_TYPES, renderReport, type ReportFormat } from './reports.render.ts';

const ReportInfo = Type.Object({
  name: Type.String(),
  title: Type.String(),
  description: Type.String(),
  formats: Type.Array(Type.String()),
  filters: Type.Array(Type.String(), { description: 'query parameters accepted besides format' }),
  url: Type.String(),
});

/** Registers the report routes. */
export function reportsRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/reports: the named reports the caller may download. */
    app.get('/api/reports', {
      config: { permission: 'api.reports.view' },
      schema: {
        tags: ['reports'],
        summary: 'The named reports',
        description: 'Only the reports the caller may download (a report may need the permission of its matching endpoint too).',
        response: responses(ListEnvelope(ReportInfo), [401, 403, 429]),
      },
      handler: async (request) => {
        const auth = requireAuth(request);
        const rows = REPORTS.filter((r) => mayDownload(r, auth)).map((r) => ({
          name: r.name, title: r.title, description: r.description, formats: ['csv', 'xlsx'], filters: Object.keys(r.filters), url: `/api/reports/${r.name}`,
        }));
        return list(rows, rows.length, 'Reports retrieved');
      },
    });

    for (const def of REPORTS) {
      /** GET /api/reports/{name}: the report as a CSV or XLSX download. */
      app.get(`/api/reports/${def.name}`, {
        config: { permission: 'api.reports.view' },
        schema: {
          tags: ['reports'],
          summary: `Download: ${def.title}`,
          description: `${def.description} Streamed as CSV (RFC 4180, header row) or XLSX (one sheet). Columns: ${def.columns.map((c) => c.header).join(', ')}. ` +
            'Times are ISO 8601 UTC, money integer pence. A cell starting with =, +, -, @ is prefixed with a quote.' +
            (def.permission ? ` Also needs \`${def.permission}\` (403 without).` : '') +
            ' Heavy work: one of the agency\'s CARETAKER_AGENCY_HEAVY_MAX slots, 503 with queue_position after CARETAKER_HEAVY_WAIT_S in its queue (docs/operations.md "Fairness between agencies").',
          querystring: Type.Object(
            { format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], { default: 'csv' }), ...def.filters },
            { additionalProperties: false },
          ),
          response: responses(fileResponse(['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], 'the report as CSV (format=csv) or XLSX (format=xlsx)'), [400, 401, 403, 429, 503]),
        },
        handler: async (request, reply) => {
          const auth = requireAuth(request);
          if (!mayDownload(def, auth)) throw forbidden();
          const { format, ...filters } = request.query as { format: ReportFormat } & Record<string, unknown>;
          // Heavy work: one of the agency's slots (docs/operations.md "Fairness between agencies"),
          // held until the stream closes; its progress is the rows written (total unknown).
          const slot = await acquireHeavySlot(deps, auth.agencyId, 'report');
          // A report that only reads may lag: on the read replica when there is one (docs/operations.md "Read replicas").
          const rows = def.rows(def.mayLag ? { ...deps, db: await deps.reads.databaseFor(auth.userId) } : deps, auth, filters);
          let first: Awaited<ReturnType<typeof rows.next>>;
          try {
            // Pull the first row before answering, so a bad filter is still a 400 in the envelope.
            first = await rows.next();
          } catch (err) {
            await slot.release();
            throw err;
          }
          async function* all() {
            let written = 0;
            if (!first.done) {
              yield first.value;
              written += 1;
            }
            for await (const row of rows) {
              yield row;
              if (++written % 1000 === 0) await slot.progress(written, null);
            }
          }
          const day = deps.clock.now().toISOString().slice(0, 10);
          void reply
            .type(CONTENT_TYPES[format])
            .header('content-disposition', `attachment; filename="${def.name}-${day}.${format}"`)
            .header('cache-control', 'no-store');
          const out = renderReport(format, def.columns, all(), def.title);
          out.once('close', () => void slot.release());
          return reply.send(out);
        },
      });
    }
  };
}
