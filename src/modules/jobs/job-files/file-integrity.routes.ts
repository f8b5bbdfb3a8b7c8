/** POST /api/security/file-integrity/scan (docs/job-files.md; docs/security.md promise 16). */
import type { AppDeps } from '../../../app-deps.ts';
import { DataEnvelope, ok, responses } from '../../../http/envelope.ts';
import { actorOf, requireAuth, type App } from '../../../http/route-types.ts';
import { scanFiles } from './file-integrity.service.ts';
import { ScanBody, ScanReport } from './job-files.schemas.ts';

/** Registers the file-integrity scan route. */
export function fileIntegrityRoutes(deps: AppDeps) {
  return async function plugin(app: App): Promise<void> {
    app.post('/api/security/file-integrity/scan', {
      config: { permission: 'api.security.file-integrity.manage' },
      schema: {
        tags: ['security'],
        summary: 'Re-verify the SHA-256 of stored documents and photos',
        description:
          "Re-reads every stored file (SysOps: all agencies; an admin: the agency's), deleted ones included since their " +
          'bytes are kept, compares the SHA-256 with the one recorded at upload and reports mismatches and missing files. ' +
          'With `limit` (and `offset`) only one page is scanned; `next_offset` gives the next. Needs a CSRF token.',
        body: ScanBody,
        response: responses(DataEnvelope(ScanReport), [400, 401, 403, 429]),
      },
      handler: async (request) => {
        const report = await scanFiles(deps, requireAuth(request), actorOf(request), request.body);
        const problems = report.mismatched + report.missing;
        return ok(report, problems === 0 ? `${report.scanned} files verified` : `${problems} of ${report.scanned} files failed verification`);
      },
    });
  };
}
