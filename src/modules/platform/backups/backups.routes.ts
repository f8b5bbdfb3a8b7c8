/**
 * GET /api/system/backup/database (docs/operations.md "Backups"): a consistent copy of the
 * embedded database (PGlite) while the server runs, as a gzipped tarball of its data folder, for
 * `caretaker backup`. PostgreSQL is backed up with pg_dump instead: the route answers 409.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { errorBody, fileResponse, responses } from '../../../http/envelope.ts';
import type { App } from '../../../http/route-types.ts';
import { inHeavySlot } from '../../../core/heavy-work.ts';

/** Registers the backup route. */
export function backupRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    app.get('/api/system/backup/database', {
      config: { permission: 'api.system.backup' },
      schema: {
        tags: ['system'],
        summary: 'Copy of the embedded database',
        description:
          'SysOps. The embedded (PGlite) database as a gzipped tarball of its data folder (application/gzip), taken between ' +
          'two transactions while the server keeps serving; `caretaker backup` downloads it. 409 on PostgreSQL: use pg_dump ' +
          '(docs/operations.md "Backups"). Heavy work of the instance: CARETAKER_AGENCY_HEAVY_MAX copies at once, more wait; 503 with queue_position ' +
          'after CARETAKER_HEAVY_WAIT_S (docs/operations.md "Fairness between agencies").',
        response: responses(fileResponse(['application/gzip'], 'gzipped tar of the PGlite data folder'), [401, 403, 409, 429, 503]),
      },
      handler: async (_request, reply) => {
        if (!deps.snapshotDatabase) {
          return reply.status(409).send(errorBody('The database is PostgreSQL: back it up with pg_dump (docs/operations.md "Backups")'));
        }
        // Heavy work of the instance itself (no agency): one slot of its own queue (docs/operations.md "Fairness between agencies").
        const snapshot = deps.snapshotDatabase;
        const tarball = await inHeavySlot(deps, null, 'backup', async () => Buffer.from(await (await snapshot()).arrayBuffer()));
        void reply.type('application/gzip').header('content-disposition', 'attachment; filename="caretaker-database.tar.gz"');
        return reply.send(tarball);
      },
    });
  };
}
