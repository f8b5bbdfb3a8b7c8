/** Push-notification device tokens of the caller (spec 4.12, 2.4): list, register, remove. */
import type { TSchema } from 'typebox';
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { DeviceToken, ListDevicesQuery, WebPushKey, RegisterDeviceBody, RemoveDeviceBody } from './devices.schemas.ts';
import { listDeviceTokens, registerDeviceToken, removeDeviceToken } from './devices.service.ts';

const PATH = '/api/system/device-tokens';
const PERMISSION = 'api.system.device-tokens.manage';
/** 201 for a new token, 200 for a refreshed one. */
const REGISTER_RESPONSES: Record<number, TSchema> = {
  ...responses(DataEnvelope(DeviceToken), [400, 401, 403, 429]),
  201: DataEnvelope(DeviceToken),
};

/** Registers the device-token routes. */
export function devicesRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    /** GET: the caller's tokens (spec 4.12). */
    app.get(PATH, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['system'],
        summary: "The caller's push-notification device tokens",
        description: 'Newest registration first. Only the caller\'s own tokens.',
        querystring: ListDevicesQuery,
        response: responses(ListEnvelope(DeviceToken), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listDeviceTokens(deps, requireAuth(request), request.query);
        return list(rows, total, 'Device tokens retrieved');
      },
    });

    /**
     * GET web-push-key: the VAPID public key a browser passes to PushManager.subscribe before
     * registering its subscription as a `web` token (docs/push.md "Web Push in the console").
     * `{public_key: null}` when Web Push is not configured. Answers the same to every caller.
     */
    app.get(`${PATH}/web-push-key`, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['system'],
        summary: 'The Web Push public key',
        description:
          'The application server key (CARETAKER_VAPID_PUBLIC_KEY, base64url) for PushManager.subscribe; the subscription is then ' +
          'registered with POST /api/system/device-tokens, platform web. public_key is null when Web Push is not configured.',
        response: responses(DataEnvelope(WebPushKey), [401, 403, 429]),
      },
      handler: async () => ok({ public_key: deps.config.push.webPush?.publicKey ?? null }, 'Web Push key retrieved'),
    });

    /** POST: registers a token for the caller (201 new, 200 refreshed). */
    app.post(PATH, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['system'],
        summary: 'Register a device token',
        description:
          'device_token (1 to 4096 characters) and platform (ios, android, web). A token already registered, by the caller ' +
          'or by another account, is refreshed and moved to the caller (201 for a new token, 200 for a refreshed one); ' +
          'a token is never stored twice. Needs a CSRF token.',
        body: RegisterDeviceBody,
        response: REGISTER_RESPONSES,
      },
      handler: async (request, reply) => {
        const { token, created } = await registerDeviceToken(deps, requireAuth(request), actorOf(request), request.body);
        void reply.status(created ? 201 : 200);
        return ok(token, created ? 'Device token registered' : 'Device token refreshed');
      },
    });

    /** DELETE: removes one of the caller's tokens. */
    app.delete(PATH, {
      config: { permission: PERMISSION },
      schema: {
        tags: ['system'],
        summary: 'Remove a device token',
        description: "Body: device_token and csrf_token (or X-CSRF-Token). 404 when the caller holds no such token.",
        body: RemoveDeviceBody,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await removeDeviceToken(deps, requireAuth(request), actorOf(request), request.body.device_token);
        return done('Device token removed');
      },
    });
  };
}
