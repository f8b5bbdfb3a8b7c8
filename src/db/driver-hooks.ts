/**
 * A dialect whose driver calls hooks around connection acquisition and the transaction commands,
 * shared by the driver wrappers (src/db/identity-writes.ts, src/db/idempotency-claim.ts). Each hook
 * receives the connection and the driver's own step, which it must call exactly once.
 */
import type { DatabaseConnection, Dialect, Driver } from 'kysely';

type Step = () => Promise<void>;

export interface DriverHooks {
  /** Called with every connection handed out (the same connection object may come back often). */
  acquired?(connection: DatabaseConnection): void;
  beginTransaction?(connection: DatabaseConnection, begin: Step): Promise<void>;
  commitTransaction?(connection: DatabaseConnection, commit: Step): Promise<void>;
  rollbackTransaction?(connection: DatabaseConnection, rollback: Step): Promise<void>;
}

/** `dialect` with its driver wrapped to call `hooks`. */
export function withDriverHooks(dialect: Dialect, hooks: DriverHooks): Dialect {
  const wrap = (driver: Driver): Driver =>
    new Proxy(driver, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const fn = value.bind(target) as (...args: unknown[]) => Promise<unknown>;
        if (property === 'acquireConnection') {
          return async (...args: unknown[]) => {
            const connection = (await fn(...args)) as DatabaseConnection;
            hooks.acquired?.(connection);
            return connection;
          };
        }
        if (property === 'beginTransaction' || property === 'commitTransaction' || property === 'rollbackTransaction') {
          const hook = hooks[property];
          if (!hook) return fn;
          return (connection: DatabaseConnection, ...rest: unknown[]) => hook(connection, async () => void (await fn(connection, ...rest)));
        }
        return fn;
      },
    });
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => wrap(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
