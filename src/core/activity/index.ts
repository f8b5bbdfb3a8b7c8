/**
 * Activity log (spec: activity log; docs/architecture.md "Data rules"): every write records one entry in its transaction.
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { activityInsert, COUNT_CAP, ENTRY_RESOURCE_COLUMNS, listActivityJson, recordActivity, type ActivityInput, type ActivityFilter } from './activity.repository.ts';
export { type DbOrTrx } from './activity.repository.ts';
