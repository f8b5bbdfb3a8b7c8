/**
 * Periodic task `contractors.certificate_expiry` (docs/events.md): once a day finds certificates of
 * active contractors that expire within the warning window and emits
 * `contractor.certificate_expiring` once per certificate and expiry date. The warned rows and the
 * events commit together, so a repeated tick emits nothing twice.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { emitEvent, type PeriodicTask } from '../../../events/index.ts';
import * as repo from './contractors.repository.ts';

/** Days before the expiry date from which a certificate counts as expiring. */
export const CERTIFICATE_WARNING_DAYS = 30;

/**
 * One scan: certificates expiring from today (UTC, deps.clock) to today + CERTIFICATE_WARNING_DAYS,
 * not warned about yet for this expiry date.
 * @returns the number of events emitted
 */
export async function scanExpiringCertificates(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const today = now.toISOString().slice(0, 10);
  const horizon = new Date(now.getTime() + CERTIFICATE_WARNING_DAYS * 86_400_000).toISOString().slice(0, 10);
  return deps.db.transaction().execute(async (trx) => {
    const due = await repo.certificationsExpiring(trx, today, horizon);
    let emitted = 0;
    for (const cert of due) {
      const fresh = await repo.recordExpiryWarning(trx, cert.id, cert.expires_on, now);
      if (!fresh) continue;
      await emitEvent(trx, now, {
        name: 'contractor.certificate_expiring',
        agencyId: cert.agency_id,
        payload: { contractor_id: cert.contractor_id, certification_id: cert.id, expires_on: cert.expires_on },
      });
      emitted++;
    }
    return emitted;
  });
}

/** The daily scan at 06:00 UTC. */
export const certificateExpiryTask: PeriodicTask = {
  name: 'contractors.certificate_expiry',
  cron: '0 6 * * *',
  run: async (deps) => {
    await scanExpiringCertificates(deps);
  },
};
