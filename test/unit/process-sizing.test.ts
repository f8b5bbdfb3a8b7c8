/**
 * When `caretaker serve` starts itself again sized for the embedded database
 * (src/main/process-sizing.ts; docs/operations.md "Memory on the embedded database").
 */
import { describe, expect, it } from 'vitest';
import { EMBEDDED_GLIBC_TUNABLES, embeddedRelaunch, type ProcessFacts } from '../../src/main/process-sizing.ts';

const facts = (over: Partial<ProcessFacts> = {}): ProcessFacts => ({
  env: { PATH: '/usr/bin', CARETAKER_DATA_DIR: '/data' },
  argv: ['/usr/bin/node', '/app/bin/caretaker.js', 'serve'],
  execArgv: ['--max-semi-space-size=16'],
  platform: 'linux',
  canExec: true,
  ...over,
});

describe('embeddedRelaunch', () => {
  it('serve on the embedded database on Linux: the same command with the glibc setting and 8 MiB semi-spaces last', () => {
    const r = embeddedRelaunch(facts());
    expect(r).not.toBeNull();
    expect(r!.args).toEqual(['/usr/bin/node', '--max-semi-space-size=16', '--max-semi-space-size=8', '/app/bin/caretaker.js', 'serve']);
    expect(r!.env).toEqual({ PATH: '/usr/bin', CARETAKER_DATA_DIR: '/data', GLIBC_TUNABLES: EMBEDDED_GLIBC_TUNABLES });
    // No command means serve.
    expect(embeddedRelaunch(facts({ argv: ['/usr/bin/node', '/app/bin/caretaker.js'] }))).not.toBeNull();
    expect(embeddedRelaunch(facts({ argv: ['/usr/bin/node', '/app/bin/caretaker.js', 'serve', '--workers', '2'] }))!.args.slice(-3)).toEqual(['serve', '--workers', '2']);
  });

  it('goes on as it is on PostgreSQL, with GLIBC_TUNABLES already set (even empty), for other commands, elsewhere than Linux, or without process.execve', () => {
    expect(embeddedRelaunch(facts({ env: { DATABASE_URL: 'postgres://db/caretaker' } }))).toBeNull();
    expect(embeddedRelaunch(facts({ env: { GLIBC_TUNABLES: '' } }))).toBeNull();
    expect(embeddedRelaunch(facts({ env: { GLIBC_TUNABLES: EMBEDDED_GLIBC_TUNABLES } }))).toBeNull();
    for (const argv of [['worker'], ['migrate'], ['serve', '--help'], ['--version']]) {
      expect(embeddedRelaunch(facts({ argv: ['/usr/bin/node', '/app/bin/caretaker.js', ...argv] }))).toBeNull();
    }
    expect(embeddedRelaunch(facts({ platform: 'darwin' }))).toBeNull();
    expect(embeddedRelaunch(facts({ canExec: false }))).toBeNull();
  });
});
