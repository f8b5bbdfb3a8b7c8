/**
 * The security blacklist (spec 1 "security: blacklisting"; docs/security.md "Blacklist"):
 * GET/POST /api/security/blacklist and DELETE /api/security/blacklist/{uuid}, behind
 * api.security.blacklist.manage (SysOps: addresses, ranges and any account; agency admins:
 * their agency's accounts).
 */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ListEnvelope, MessageEnvelope, done, list, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import type { BlacklistGuard } from './blacklist.guard.ts';
import { BlacklistEntry, BlacklistParams, CreateBlacklistBody, ListBlacklistQuery } from './blacklist.schemas.ts';
import { addToBlacklist, listBlacklist, removeFromBlacklist } from './blacklist.service.ts';

const PATH = '/api/security/blacklist';
const KEY = 'api.security.blacklist.manage';

/** Registers the blacklist routes. */
export function blacklistRoutes(deps: AppDeps, guard: BlacklistGuard) {
  return async function plugin(app: App): Promise<void> {
    /** GET: live entries, newest first, paginated. */
    app.get(PATH, {
      config: { permission: KEY },
      schema: {
        tags: ['security'],
        summary: 'List the blacklist',
        description: "Live entries (not removed, not expired), newest first. SysOps see every entry; an agency admin the entries of the agency's accounts.",
        querystring: ListBlacklistQuery,
        response: responses(ListEnvelope(BlacklistEntry), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const { rows, total } = await listBlacklist(deps, requireAuth(request), request.query);
        return list(rows, total, 'Blacklist retrieved');
      },
    });

    /** POST: blocks an address, a range or an account. */
    app.post(PATH, {
      config: { permission: KEY },
      schema: {
        tags: ['security'],
        summary: 'Block an address, a range or an account',
        description:
          'kind ip (value: IPv4 or IPv6 address) and cidr (value: range) are for SysOps; kind account (user_uuid) for SysOps ' +
          "and the agency's admins. reason required; expires_at optional (future). Refused callers get 403 before any database " +
          'work. Already blocked: 409. Needs a CSRF token.',
        body: CreateBlacklistBody,
        response: responses(DataEnvelope(BlacklistEntry), [400, 401, 403, 404, 409, 429], 201),
      },
      handler: async (request, reply) => {
        const entry = await addToBlacklist(deps, guard, requireAuth(request), actorOf(request), request.body);
        void reply.status(201);
        return ok(entry, 'Blacklist entry added');
      },
    });

    /** DELETE /{uuid}: lifts a block. */
    app.delete(`${PATH}/:uuid`, {
      config: { permission: KEY },
      schema: {
        tags: ['security'],
        summary: 'Lift a block',
        description: 'The entry is kept with removed_at for the record. Outside the caller\'s scope: 404. Needs a CSRF token.',
        params: BlacklistParams,
        response: responses(MessageEnvelope, [400, 401, 403, 404, 429]),
      },
      handler: async (request) => {
        await removeFromBlacklist(deps, guard, requireAuth(request), actorOf(request), request.params.uuid);
        return done('Blacklist entry removed');
      },
    });
  };
}
