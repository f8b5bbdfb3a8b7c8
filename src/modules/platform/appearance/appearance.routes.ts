/**
 * Dashboard appearance of the caller (spec 4.14, 2.5a): read (fields at the top level, or the
 * banner image itself with ?action=banner), set the background, upload and remove the banner.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { notFound } from '../../../core/errors.ts';
import { readUpload, registerUploadParsing } from '../../../http/upload.ts';
import { sendStoredFile } from '../../../http/send-file.ts';
import { alsoSentAs, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { AppearanceEnvelope, AppearanceQuery, UpdateAppearanceBody } from './appearance.schemas.ts';
import { deleteBanner, readAppearance, readBanner, saveBanner, updateAppearance } from './appearance.service.ts';

const PATH = '/api/users/appearance';
const PERMISSION = 'api.users.appearance.manage';

/** Registers the appearance routes. */
export function appearanceRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    await registerUploadParsing(app, deps.config.uploads);
    /** GET: settings at the top level, or with action=banner the image itself. */
    app.get(PATH, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['users'],
        summary: "The caller's dashboard appearance, or its banner image",
        description:
          'Without action: { success, message, dashboard_bg_custom, dashboard_banner_path, banner } at the top level ' +
          "(spec 2.1: no data). With action=banner: the stored image itself (200, Content-Type image/png, image/jpeg or " +
          'image/webp, ETag = its SHA-256), or 404 "Banner not found" in the error envelope when none is set. Any other action: 400.',
        querystring: AppearanceQuery,
        response: responses(alsoSentAs(AppearanceEnvelope, ['image/png', 'image/jpeg', 'image/webp']), [400, 401, 403, 404, 429]),
      },
      handler: async (request, reply) => {
        const auth = requireAuth(request);
        if (request.query.action !== 'banner') return readAppearance(deps, auth);
        const banner = await readBanner(deps, auth);
        return sendStoredFile(request, reply, deps.files, {
          key: banner.key, sha256: banner.sha256, mime: banner.mime, disposition: 'inline; filename="banner"', missing: () => notFound('Banner'),
        });
      },
    });

    /** PUT: sets the dashboard background. */
    app.put(PATH, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['users'],
        summary: 'Set the dashboard background',
        description:
          'dashboard_bg_custom: a #RRGGBB colour (stored lower-case) or one of the presets default, light, dark, slate, ' +
          'ocean, forest, sunset; null resets to default. Answers with the settings at the top level. Needs a CSRF token.',
        body: UpdateAppearanceBody,
        response: responses(AppearanceEnvelope, [400, 401, 403, 429]),
      },
      handler: async (request) => updateAppearance(deps, requireAuth(request), actorOf(request), request.body.dashboard_bg_custom),
    });

    /** POST /banner: uploads the banner (multipart, field `file`). */
    app.post(`${PATH}/banner`, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['users'],
        summary: 'Upload the dashboard banner',
        description:
          'multipart/form-data with one file in field `file`: PNG, JPEG or WebP, decided by the content (not the name or ' +
          `the declared type), at most ${deps.config.uploads.bannerMaxBytes} bytes (413 above; CARETAKER_UPLOAD_BANNER_MAX_BYTES). ` +
          'Anything else is 400. Replaces an earlier banner. Send the CSRF token in the X-CSRF-Token header.',
        consumes: ['multipart/form-data'],
        response: responses(AppearanceEnvelope, [400, 401, 403, 413, 429]),
      },
      handler: async (request) => {
        const max = deps.config.uploads.bannerMaxBytes;
        const { file } = await readUpload(request, max, `The banner must be at most ${max} bytes`);
        try {
          return await saveBanner(deps, requireAuth(request), actorOf(request), file);
        } finally {
          await file.dispose();
        }
      },
    });

    /** DELETE /banner: removes the banner. */
    app.delete(`${PATH}/banner`, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['users'],
        summary: 'Remove the dashboard banner',
        description: 'Deletes the stored image; 404 "Banner not found" when none is set. Needs a CSRF token (X-CSRF-Token or body csrf_token).',
        response: responses(AppearanceEnvelope, [401, 403, 404, 429]),
      },
      handler: async (request) => deleteBanner(deps, requireAuth(request), actorOf(request)),
    });
  };
}
