/**
 * Type-level checks of the typed client (clients/typescript, docs/api.md "Typed client"),
 * compiled by test/clients/client-types.test.ts (and by `npm run typecheck`), never run: a
 * successful call's `data` is the 2xx body (no `undefined`), uploads take a typed file, downloads
 * are typed Blob / ArrayBuffer / stream, and an unknown query parameter, body field or option does
 * not compile (each `@ts-expect-error` fails the compile if its line is accepted).
 */
import { Readable } from 'node:stream';
import { expectTypeOf } from 'vitest';
import type { CaretakerClient, FileInput } from '../../clients/typescript/src/index.ts';


export async function results(api: CaretakerClient): Promise<void> {
  const job = await api.GET('/api/jobs/{uuid}', { params: { path: { uuid: 'x' } } });
  expectTypeOf(job.data).not.toBeUndefined();
  expectTypeOf(job.data).not.toBeNullable();
  expectTypeOf(job.data.data.title).toEqualTypeOf<string>();
  const list = await api.GET('/api/jobs/manage', { params: { query: { limit: 5 } } });
  expectTypeOf(list.data.count).toEqualTypeOf<number>();
  const created = await api.POST('/api/jobs/manage', { body: { title: 'Boiler', priority: 2 } });
  expectTypeOf(created.data.data.uuid).toEqualTypeOf<string>();
  const login = await api.login('a@example.com', 'secret');
  expectTypeOf(login.token).toEqualTypeOf<string>();
  const revoked = await api.DELETE('/api/security/mobile-auth');
  expectTypeOf(revoked.data.message).toEqualTypeOf<string>();
  for await (const item of api.paginate('/api/jobs/manage', { params: { query: { priority: 1 } } })) expectTypeOf(item.reference).toEqualTypeOf<string>();
  // parseAs changes how the body is read, and its type.
  expectTypeOf((await api.GET('/api/jobs/manage', { parseAs: 'text' })).data).toEqualTypeOf<string>();
  expectTypeOf((await api.GET('/api/jobs/manage', { parseAs: 'stream' })).data).toEqualTypeOf<ReadableStream<Uint8Array>>();
}

export async function files(api: CaretakerClient, uuid: string): Promise<void> {
  const path = { uuid };
  // A file as a Buffer, a Uint8Array, a Blob, a web stream or a Node stream; `filename` names it.
  await api.POST('/api/jobs/{uuid}/photos', { params: { path }, body: { file: Buffer.from('x'), filename: 'boiler.png', description: 'Boiler' } });
  await api.POST('/api/jobs/{uuid}/documents', { params: { path }, body: { file: new Blob(['notes']), internal: true } });
  await api.POST('/api/jobs/{uuid}/documents', { params: { path }, body: { file: new Response('notes').body!, filename: 'notes.txt' } });
  await api.POST('/api/jobs/{uuid}/documents', { params: { path }, body: { file: Readable.from([Buffer.from('notes')]), filename: 'notes.txt' } });
  const imported = await api.POST('/api/imports', { body: { file: new Uint8Array([0x61]), filename: 'tenants.csv', entity: 'tenants', skip_bad_rows: 'true' } });
  expectTypeOf(imported.data.success).toEqualTypeOf<true>();
  expectTypeOf<Buffer>().toExtend<FileInput>();
  // @ts-expect-error the file is required
  await api.POST('/api/jobs/{uuid}/photos', { params: { path }, body: { description: 'no file' } });
  // @ts-expect-error a file is bytes, not a string
  await api.POST('/api/jobs/{uuid}/photos', { params: { path }, body: { file: 'boiler.png' } });
  // @ts-expect-error `entity` is one of the document's values
  await api.POST('/api/imports', { body: { file: new Blob(['x']), entity: 'cars' } });

  // Downloads: a plain GET of a file answer is a Blob, and download* say how it is read.
  const pdf = await api.GET('/api/invoices/{uuid}/pdf', { params: { path } });
  expectTypeOf(pdf.data).toEqualTypeOf<Blob>();
  expectTypeOf((await api.download('/api/jobs/{uuid}/photos/{file_uuid}', { params: { path: { uuid, file_uuid: uuid } } })).data).toEqualTypeOf<Blob>();
  expectTypeOf((await api.downloadArrayBuffer('/api/invoices/export/bills.csv')).data).toEqualTypeOf<ArrayBuffer>();
  expectTypeOf((await api.downloadStream('/api/agencies/current/export')).data).toEqualTypeOf<ReadableStream<Uint8Array>>();
  // @ts-expect-error a JSON operation is not a download
  await api.download('/api/jobs/manage');
}

export async function exactParameters(api: CaretakerClient): Promise<void> {
  // @ts-expect-error an unknown query parameter
  await api.GET('/api/jobs/manage', { params: { query: { limit: 5, colour: 'red' } } });
  // @ts-expect-error a query parameter of the wrong type
  await api.GET('/api/jobs/manage', { params: { query: { limit: 'five' } } });
  // @ts-expect-error an operation without query parameters takes none
  await api.GET('/api/jobs/{uuid}', { params: { path: { uuid: 'x' }, query: { limit: 5 } } });
  // @ts-expect-error the path parameter is required
  await api.GET('/api/jobs/{uuid}');
  // @ts-expect-error an unknown path parameter
  await api.GET('/api/jobs/{uuid}', { params: { path: { uuid: 'x', id: 1 } } });
  // @ts-expect-error an unknown option beside params
  await api.GET('/api/jobs/manage', { params: {}, limit: 5 });
  // @ts-expect-error an unknown body field
  await api.POST('/api/jobs/manage', { body: { title: 'Boiler', priority: 2, colour: 'red' } });
  // @ts-expect-error an unknown query parameter of a paginated list
  api.paginate('/api/jobs/manage', { params: { query: { colour: 'red' } } });
  // @ts-expect-error no such operation
  await api.GET('/api/no-such-path');
}

