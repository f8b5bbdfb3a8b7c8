/**
 * The `caretaker history ...` sub-commands (docs/operations.md "History partitions and retention"):
 *   caretaker history status              every partition of the history tables, rows in DEFAULT
 *   caretaker history maintain            one run of the worker's `history.partitions` task now
 *   caretaker history archives            the archived months (file store key, rows, size)
 *   caretaker history restore <partition> an archived month back into `<partition>_restored`
 * Each prints JSON on standard output.
 */
import type { Config } from '../../config/config.ts';
import { historyArchives, historyStatus, maintainHistory, restoreArchive } from '../../modules/platform/gdpr/index.ts';
import { openRuntime } from '../runtime.ts';

/**
 * Runs a history sub-command.
 * @param args the words after `history`
 * @returns the exit code: 0 done, 1 the restore failed (no such archive, table exists)
 */
export async function historyCommand(config: Readonly<Config>, args: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const runtime = await openRuntime(config);
  try {
    const deps = runtime.deps;
    if (args[0] === 'status') out(JSON.stringify(await historyStatus(deps), null, 2));
    else if (args[0] === 'maintain') out(JSON.stringify(await maintainHistory(deps), null, 2));
    else if (args[0] === 'archives') out(JSON.stringify(await historyArchives(deps), null, 2));
    else if (args[0] === 'restore') out(JSON.stringify(await restoreArchive(deps, args[1]!), null, 2));
    return 0;
  } catch (e) {
    err((e as Error).message);
    return 1;
  } finally {
    await runtime.close();
  }
}
