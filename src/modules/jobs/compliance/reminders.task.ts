/**
 * Reminders before a certificate expires (docs/compliance.md "Reminders before expiry"): the
 * periodic task `compliance.reminders` finds every compliance item whose latest certificate
 * expires within REMINDER_THRESHOLDS[0] days and, once per item, expiry date and threshold, emits
 * `compliance.certificate_expiring`; messaging tells the agents of the property's branch and its
 * landlords. An item first seen inside a smaller threshold gets one reminder (the smallest), the
 * larger thresholds recorded as passed. Reminder rows and events commit together, and the rows are
 * unique, so two scans at once remind once.
 */
import type { AppDeps } from '../../../app-deps.ts';
import { emitEvent, type PeriodicTask } from '../../../events/index.ts';
import { addDays, londonDate } from '../../../lib/london-time.ts';
import * as repo from './compliance.repository.ts';

/** Days before expiry at which a reminder goes out, largest first. */
export const REMINDER_THRESHOLDS = [60, 30, 7] as const;

/**
 * One scan on today's London date.
 * @returns the number of reminders (events) emitted
 */
export async function sendExpiryReminders(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const today = londonDate(now);
  return deps.db.transaction().execute(async (trx) => {
    const items = await repo.expiringItems(trx, today, addDays(today, REMINDER_THRESHOLDS[0]));
    let emitted = 0;
    for (const item of items) {
      const reached = REMINDER_THRESHOLDS.filter((t) => item.days_left <= t);
      const smallest = reached.at(-1);
      if (smallest === undefined) continue;
      const fresh = await repo.recordReminders(trx, { agency_id: item.agency_id, item_id: item.id, expires_on: item.expires_on }, reached, now);
      if (!fresh.includes(smallest)) continue;
      await emitEvent(trx, now, {
        name: 'compliance.certificate_expiring',
        agencyId: item.agency_id,
        payload: { item_id: item.id, item_uuid: item.uuid, address_id: item.address_id, expires_on: item.expires_on, days_left: item.days_left, threshold_days: smallest },
      });
      emitted++;
    }
    return emitted;
  });
}

/** `compliance.reminders`, every hour at :20 (a reminder is due on a London date, whatever the hour). */
export const complianceRemindersTask: PeriodicTask = {
  name: 'compliance.reminders',
  cron: '20 * * * *',
  run: async (deps) => {
    await sendExpiryReminders(deps);
  },
};
