/**
 * Multipart parsing only where uploads are (src/http/upload.ts): a module registers the parser on
 * its own scope, so the plugin's per-request hooks run on upload routes and nowhere else, and a
 * route that takes multipart/form-data outside such a scope stops the start instead of answering
 * 415 to every upload. On bare Fastify instances (no database).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { assertUploadScopes, isUpload, registerUploadParsing } from '../../src/http/upload.ts';

const UPLOADS = { documentMaxBytes: 1024, photoMaxBytes: 1024, bannerMaxBytes: 1024 };
const takesUpload = { schema: { consumes: ['multipart/form-data'] } };

/** A multipart body with one text field. */
function form(): { payload: string; headers: Record<string, string> } {
  const boundary = 'x-boundary';
  return {
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The kinds of hook Fastify runs for a route (`GET /status`), read off printRoutes with hooks. */
function hooksOf(app: FastifyInstance, route: string): string[] {
  const [method, path] = route.split(' ');
  const lines = app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
  const at = lines.findIndex((l) => l.includes(`${path} (${method}`));
  const hooks: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const hook = /• \((\w+)\)/.exec(line);
    if (!hook) break;
    hooks.push(hook[1]!);
  }
  return hooks;
}

describe('upload scopes', () => {
  it('parses multipart in the scope that registered it, and only there', async () => {
    const app = Fastify();
    assertUploadScopes(app);
    await app.register(async (uploads) => {
      await registerUploadParsing(uploads, UPLOADS);
      uploads.post('/upload', takesUpload, async (request) => {
        const fields: Record<string, string> = {};
        for await (const part of request.parts()) if (part.type === 'field') fields[part.fieldname] = String(part.value);
        return { upload: isUpload(request), fields };
      });
    });
    app.get('/status', async (request) => ({ upload: isUpload(request) }));
    await app.ready();

    const sent = await app.inject({ method: 'POST', url: '/upload', ...form() });
    expect(sent.json()).toEqual({ upload: true, fields: { note: 'hello' } });
    expect((await app.inject({ method: 'GET', url: '/status' })).json()).toEqual({ upload: false });
    // The parser's hooks (an async onRequest and onResponse on every request) stay on the upload route.
    expect(hooksOf(app, 'POST /upload')).toEqual(['onRequest', 'onResponse']);
    expect(hooksOf(app, 'GET /status')).toEqual([]);
    await app.close();
  });

  it('refuses to start when a route takes multipart outside an upload scope', async () => {
    const app = Fastify();
    assertUploadScopes(app);
    void app.register(async (scope) => {
      scope.post('/forgotten', takesUpload, async () => ({}));
    });
    await expect(app.ready()).rejects.toThrow('Refusing to start: POST /forgotten takes multipart/form-data outside a scope that called registerUploadParsing');
  });
});
