/** Schemas of the appearance endpoints (spec 2.5a, 4.14; docs/appearance.md). */
import { Type, type Static } from 'typebox';
import { DateTime } from '../../../http/schema-primitives.ts';

/** Named background presets a dashboard knows, beside a `#RRGGBB` colour. */
export const BG_PRESETS = ['default', 'light', 'dark', 'slate', 'ocean', 'forest', 'sunset'] as const;
/** A `#RRGGBB` colour (case-insensitive; stored lower-case) or one of BG_PRESETS. */
export const BG_PATTERN = `^(#[0-9a-fA-F]{6}|${BG_PRESETS.join('|')})$`;

/** URL path of the stored banner image. */
export const BANNER_PATH = '/api/users/appearance?action=banner';

const BannerInfo = Type.Union(
  [
    Type.Object({
      mime: Type.String({ description: 'image/png, image/jpeg or image/webp (from the content)' }),
      size_bytes: Type.Integer(),
      sha256: Type.String({ description: 'SHA-256 of the image, hex' }),
      uploaded_at: DateTime(),
    }),
    Type.Null(),
  ],
  { description: 'facts about the stored banner, or null' },
);

/** Appearance fields at the TOP level of the body (spec 2.1, 4.14), not under data. */
export const AppearanceEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    dashboard_bg_custom: Type.String({ description: `#RRGGBB or a preset (${BG_PRESETS.join(', ')}); 'default' when never set` }),
    dashboard_banner_path: Type.Union([Type.String(), Type.Null()], { description: `${BANNER_PATH} when a banner is stored, else null` }),
    banner: BannerInfo,
  },
  { description: 'Appearance settings (spec 2.5a) at the top level' },
);
export type AppearanceBody = Static<typeof AppearanceEnvelope>;

export const AppearanceQuery = Type.Object(
  { action: Type.Optional(Type.Unsafe<'banner'>({ type: 'string', enum: ['banner'], description: 'banner: answer with the stored image itself' })) },
  { additionalProperties: false },
);

export const UpdateAppearanceBody = Type.Object(
  {
    dashboard_bg_custom: Type.Union([Type.String({ pattern: BG_PATTERN }), Type.Null()], {
      description: `#RRGGBB or one of ${BG_PRESETS.join(', ')}; null resets to default`,
    }),
  },
  { additionalProperties: false },
);

