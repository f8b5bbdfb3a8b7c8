/**
 * OpenAPI 3.1 document generated from the route schemas (@fastify/swagger) at
 * /api/openapi.json, with each operation's permission key as `x-permission` and in its
 * description, and the interactive reference (@fastify/swagger-ui) at /docs.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

const ACCESS_TEXT: Record<string, string> = {
  public: 'No authentication.',
  authenticated: 'Any valid bearer token or session.',
  bearer: 'A valid bearer token in the Authorization header.',
};

/** Registers the OpenAPI generator; call before any route is added. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Caretaker API',
        version,
        description:
          'Property maintenance and job management for letting agencies. Every response uses the envelope ' +
          '{ success, data, count, message } or { success: false, error }. POST, PUT and DELETE need a CSRF token ' +
          'from GET /api/security/csrf-token (body csrf_token or header X-CSRF-Token), except the two token-issuing endpoints.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: '64-character token from login or mobile-auth' },
          session: { type: 'apiKey', in: 'cookie', name: 'caretaker_session' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const permission = (route.config as { permission?: string } | undefined)?.permission ?? 'public';
      const access = ACCESS_TEXT[permission] ?? `Permission key \`${permission}\`.`;
      const s = { ...(schema as Record<string, unknown>) };
      s['x-permission'] = permission;
      s.description = [s.description, `**Access:** ${access}`].filter(Boolean).join('\n\n');
      if (permission !== 'public') s.security = [{ bearer: [] }, { session: [] }];
      return { schema: s as never, url };
    },
  });
}

/** Registers GET /api/openapi.json and the /docs page, all public. */
export async function registerDocsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), permission: 'public' };
    });
    docs.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  });
}
