/** Routes of the users area: GET /api/users/permissions (spec 4.5). */
import { DataEnvelope, ok, responses } from '../../http/envelope.ts';
import { requireAuth, type App } from '../../http/route-types.ts';
import { PermissionsData } from '../auth/auth.schemas.ts';
import { resolvedPermissions } from '../auth/me.service.ts';

/** Registers the users routes. */
export function usersRoutes() {
  return async function plugin(app: App): Promise<void> {
    /** GET /api/users/permissions (spec 4.5): the caller's role, level and sorted permission keys. */
    app.get('/api/users/permissions', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: "The caller's resolved permissions",
        response: responses(DataEnvelope(PermissionsData), [401, 429]),
      },
      handler: async (request) => ok(resolvedPermissions(requireAuth(request)), 'Permissions retrieved'),
    });
  };
}
