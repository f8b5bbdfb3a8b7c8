/** Configuration parsing: defaults, and a clear message naming a bad variable. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toMatch(/data$/);
    expect(c.rateLimit.windowS).toBe(60);
    expect(c.playground).toBe(false);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('CARETAKER_PUBLIC_URL defaults to the host and port in use, so e-mail links reach this process', () => {
    expect(loadConfig({}).mail.publicUrl).toBe('http://127.0.0.1:3000');
    expect(loadConfig({ PORT: '4000' }).mail.publicUrl).toBe('http://127.0.0.1:4000');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).mail.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::1', PORT: '8080' }).mail.publicUrl).toBe('http://[::1]:8080');
    expect(loadConfig({ HOST: 'caretaker.internal', PORT: '4000', CARETAKER_PUBLIC_URL: 'https://caretaker.example.com/' }).mail.publicUrl).toBe(
      'https://caretaker.example.com',
    );
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'not a url'],
    ['CARETAKER_RATE_LIMIT_IP_MAX', '0'],
    ['CARETAKER_PLAYGROUND', 'maybe'],
    ['LOG_LEVEL', 'loud'],
    ['CARETAKER_TRUST_PROXY', 'proxy.example.com'],
    ['CARETAKER_ADMIN_PASSWORD', 'short'],
  ])('%s=%s is refused with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid configuration: ${name} `));
  });
});
