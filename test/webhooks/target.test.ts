import { describe, expect, it } from 'vitest';
import { targetProblem } from '../../src/modules/webhooks/webhooks.target.ts';

const production = { allowLoopback: false, timeoutMs: 1000 };
const development = { allowLoopback: true, timeoutMs: 1000 };

describe('webhook receiver URLs (https only in production, http to loopback in development, no private networks)', () => {
  it('refuses in production http, loopback by address or by name, private, link-local and metadata targets', async () => {
    expect(await targetProblem('http://8.8.8.8/hook', production)).toBe('not https');
    expect(await targetProblem('https://127.0.0.1/hook', production)).toBe('non-public address');
    expect(await targetProblem('https://localhost/hook', production)).toBe('non-public address');
    expect(await targetProblem('https://[::1]/hook', production)).toBe('non-public address');
    expect(await targetProblem('https://10.2.3.4/hook', production)).toBe('non-public address');
    expect(await targetProblem('https://172.20.0.1/hook', production)).toBe('non-public address');
    expect(await targetProblem('https://169.254.169.254/latest', production)).toBe('non-public address');
    expect(await targetProblem('https://[::ffff:192.168.0.1]/x', production)).toBe('non-public address');
    expect(await targetProblem('https://a:b@8.8.8.8/x', production)).toBe('credentials in the URL');
    expect(await targetProblem('not a url', production)).toBe('not a URL');
  });

  it('accepts a public https address in production and http to loopback only in development', async () => {
    expect(await targetProblem('https://8.8.8.8/hook', production)).toBeUndefined();
    expect(await targetProblem('http://127.0.0.1:5678/webhook/abc', development)).toBeUndefined();
    expect(await targetProblem('http://localhost:5678/webhook/abc', development)).toBeUndefined();
    expect(await targetProblem('http://8.8.8.8/hook', development)).toBe('http only to loopback');
    expect(await targetProblem('https://192.168.1.1/hook', development)).toBe('non-public address');
  });
});
