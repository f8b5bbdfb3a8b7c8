/** Schemas of the documents, photos and file-integrity endpoints (docs/job-files.md). */
import { Type, type Static } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schema-primitives.ts';
import { Pagination } from '../../../http/pagination.ts';


export const JobFile = Type.Object(
  {
    uuid: Uuid(),
    job_uuid: Uuid(),
    kind: Type.Union([Type.Literal('document'), Type.Literal('photo')]),
    filename: Type.String({ description: "the client's file name, sanitised, for display only" }),
    description: Nullable(Type.String()),
    mime: Type.String({ description: 'type decided from the content' }),
    size_bytes: Type.Integer({ minimum: 1 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the content, hex' }),
    internal: Type.Boolean({ description: 'staff only when true' }),
    uploaded_by_uuid: Nullable(Uuid()),
    uploaded_by_name: Nullable(Type.String()),
    created_at: DateTime(),
    download_url: Type.String({ description: 'path of the download endpoint' }),
  },
  { description: 'A document or photo of a job' },
);
export type JobFileDto = Static<typeof JobFile>;

export const JobParams = Type.Object({ uuid: Uuid({ description: 'job uuid' }) });
export const FileParams = Type.Object({
  uuid: Uuid({ description: 'job uuid' }),
  file_uuid: Uuid(),
});
export const ListFilesQuery = Type.Object({ ...Pagination }, { additionalProperties: false });

export const ScanBody = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'scan one page of this many files (default: all files)' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, description: 'files to skip, in id order (with limit)' })),
  },
  { additionalProperties: false, description: 'optional: may be left out entirely' },
);
export type ScanInput = Static<typeof ScanBody>;

export const IntegrityProblem = Type.Object({
  file_uuid: Uuid(),
  job_uuid: Uuid(),
  kind: Type.Union([Type.Literal('document'), Type.Literal('photo')]),
  status: Type.Union([Type.Literal('mismatch'), Type.Literal('missing')]),
  expected_sha256: Type.String(),
  actual_sha256: Nullable(Type.String({ description: 'null when the stored bytes are missing' })),
});

export const ScanReport = Type.Object({
  total: Type.Integer({ description: 'stored files in scope' }),
  scanned: Type.Integer(),
  ok: Type.Integer(),
  mismatched: Type.Integer(),
  missing: Type.Integer(),
  next_offset: Type.Union([Type.Integer(), Type.Null()], { description: 'offset of the next page, null when done' }),
  problems: Type.Array(IntegrityProblem),
  scanned_at: DateTime(),
});
export type ScanReportDto = Static<typeof ScanReport>;
