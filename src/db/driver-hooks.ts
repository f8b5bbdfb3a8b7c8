/**
 * Wrapping the database driver: `wrapDriver` replaces some of a dialect's driver methods (every
 * driver wrapper of src/db is built with it), and `withDriverHooks` on top of it calls hooks around
 * connection acquisition and the transaction commands, shared by src/db/identity-writes.ts and
 * src/db/idempotency-claim.ts. Each hook receives the connection and the driver's own step, which
 * it must call exactly once.
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

/** A driver method, bound to its driver. */
export type DriverMethod = (...args: never[]) => Promise<unknown>;

/**
 * `dialect` with some of its driver's methods replaced: `replace(name, own)` receives the name and
 * the driver's own method (bound) and returns the method to use instead, or undefined to keep the
 * driver's. Each method is looked up once per driver, not on every call (a query acquires and
 * releases a connection through every wrapper of the stack). The one way the driver wrappers of
 * src/db are built (hooks below, src/db/pipeline.ts, src/db/query-tracing.ts,
 * src/db/admission-gate.ts).
 */
export function wrapDriver(dialect: Dialect, replace: (name: keyof Driver, own: DriverMethod) => DriverMethod | undefined): Dialect {
  const wrap = (driver: Driver): Driver => {
    const methods = new Map<PropertyKey, DriverMethod>();
    return new Proxy(driver, {
      get(target, property, receiver) {
        const known = methods.get(property);
        if (known) return known;
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const own = value.bind(target) as DriverMethod;
        const method = replace(property as keyof Driver, own) ?? own;
        methods.set(property, method);
        return method;
      },
    });
  };
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => wrap(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

/** `dialect` with its driver wrapped to call `hooks`. */
export function withDriverHooks(dialect: Dialect, hooks: DriverHooks): Dialect {
  return wrapDriver(dialect, (name, own) => {
    const fn = own as unknown as (...args: unknown[]) => Promise<unknown>;
    if (name === 'acquireConnection') {
      return (async (...args: unknown[]) => {
        const connection = (await fn(...args)) as DatabaseConnection;
        hooks.acquired?.(connection);
        return connection;
      }) as DriverMethod;
    }
    if (name === 'beginTransaction' || name === 'commitTransaction' || name === 'rollbackTransaction') {
      const hook = hooks[name];
      if (!hook) return undefined;
      return ((connection: DatabaseConnection, ...rest: unknown[]) => hook(connection, async () => void (await fn(connection, ...rest)))) as DriverMethod;
    }
    return undefined;
  });
}
