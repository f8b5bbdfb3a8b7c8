/** SQL of the weather module: a visible job with its trade and address (docs/insight.md "Weather"). */
import type { DbOrTrx } from '../../../db/types.ts';
import { visibleTo, type JobScope } from '../jobs/index.ts';

/** The job by uuid if the scope may open it, with what the forecast needs. */
export function findJobForWeather(db: DbOrTrx, scope: JobScope, uuid: string) {
  return db
    .selectFrom('jobs as j')
    .leftJoin('trades as tr', 'tr.id', 'j.trade_id')
    .leftJoin('addresses as a', 'a.id', 'j.address_id')
    .where('j.uuid', '=', uuid)
    .where('j.deleted_at', 'is', null)
    .where((eb) => visibleTo(eb, scope))
    .select([
      'j.uuid', 'j.reference', 'j.scheduled_for', 'tr.code as trade_code', 'tr.name as trade_name', 'tr.outdoor',
      'a.postcode', 'a.latitude', 'a.longitude',
    ])
    .executeTakeFirst();
}
