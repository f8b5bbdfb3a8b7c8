/** Schemas of the device-token endpoints (spec 2.4, 4.12; docs/devices.md). */
import { Type, type Static } from 'typebox';
import { Pagination } from '../../../http/pagination.ts';
import { DateTime } from '../../../http/schema-primitives.ts';

export const PLATFORMS = ['ios', 'android', 'web'] as const;
export type Platform = (typeof PLATFORMS)[number];

const TokenString = Type.String({ minLength: 1, maxLength: 4096, description: 'push token from APNs, FCM or Web Push, 1 to 4096 characters' });

export const DeviceToken = Type.Object(
  {
    ID: Type.Integer(),
    user_id: Type.Integer(),
    device_token: Type.String(),
    platform: Type.Unsafe<Platform>({ type: 'string', enum: [...PLATFORMS] }),
    registered_at: DateTime(),
  },
  { description: 'Device token record (spec 2.4)' },
);

/** The Web Push application server key a browser subscribes with (docs/push.md "Web Push in the console"). */
export const WebPushKey = Type.Object(
  {
    public_key: Type.Union([Type.String(), Type.Null()], {
      description: 'CARETAKER_VAPID_PUBLIC_KEY (base64url, a 65-byte P-256 point), or null when Web Push is not configured',
    }),
  },
  { description: 'Web Push public key' },
);
export type DeviceTokenDto = Static<typeof DeviceToken>;

export const RegisterDeviceBody = Type.Object(
  {
    device_token: TokenString,
    platform: Type.Unsafe<Platform>({ type: 'string', enum: [...PLATFORMS], description: 'ios, android or web' }),
  },
  { additionalProperties: false },
);
export type RegisterDeviceInput = Static<typeof RegisterDeviceBody>;

export const RemoveDeviceBody = Type.Object(
  { device_token: TokenString },
  { additionalProperties: false },
);

export const ListDevicesQuery = Type.Object({ ...Pagination }, { additionalProperties: false });
