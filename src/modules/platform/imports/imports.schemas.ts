/** Schemas of the import endpoints (docs/onboarding.md, "Import"). */
import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';

const RowOutcome = Type.Object({
  row: Type.Integer({ description: 'line of the file (the header is line 1)' }),
  outcome: Type.String({ description: 'create, update, unchanged or error' }),
  errors: Type.Array(Type.Object({ column: Type.String(), reason: Type.String() })),
  warnings: Type.Optional(Type.Array(Type.Object({ column: Type.String(), reason: Type.String() }), {
    description: 'dry run: cells a spreadsheet would run as a formula (starting = + - @); stored as typed, quoted only when exported',
  })),
});

export const Import = Type.Object(
  {
    uuid: Uuid(),
    entity: Type.String({ description: 'addresses, tenants, contractors or landlords' }),
    file_name: Type.String(),
    status: Type.String({ description: 'checked (dry run done), queued, committing, committed or failed' }),
    skip_bad_rows: Type.Boolean(),
    encoding: Nullable(Type.String({ description: 'utf-8, utf-16le, utf-16be, windows-1252, or xlsx' })),
    delimiter: Nullable(Type.String({ description: 'the CSV delimiter found; null for XLSX' })),
    rows_total: Type.Integer(),
    rows_done: Type.Integer({ description: 'rows the commit has passed so far' }),
    queue_position: Nullable(Type.Integer({ minimum: 1, description: "status queued: the import's place in its agency's queue (1 is next; the agency runs CARETAKER_AGENCY_HEAVY_MAX commits at once); else null" })),
    error_count: Type.Integer(),
    counts: Type.Object({ create: Type.Integer(), update: Type.Integer(), unchanged: Type.Integer(), error: Type.Integer() }),
    failure: Nullable(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
    committed_at: Nullable(DateTime()),
    kept_columns: Type.Optional(
      Type.Array(Type.String(), {
        description:
          'dry run only: the optional columns the file lacks, in template order; an update keeps those fields as stored (a cell present and empty clears its field)',
      }),
    ),
    warning_count: Type.Optional(Type.Integer({ description: 'dry run only: rows with warnings (cells a spreadsheet would run as a formula)' })),
    rows: Type.Optional(Type.Array(RowOutcome, { description: 'dry run: every row; GET: the rows with errors' })),
  },
  { description: 'An import of a CSV or XLSX file' },
);

export const TemplateParams = Type.Object(
  { entity: Type.Union([Type.Literal('addresses.csv'), Type.Literal('tenants.csv'), Type.Literal('contractors.csv'), Type.Literal('landlords.csv')]) },
  { additionalProperties: false },
);
