import { describe, expect, it } from 'vitest';
import { targetProblem } from '../../../src/modules/messaging/webhooks/webhooks.target.ts';

const production = { allowLoopback: false, timeoutMs: 1000 };
const development = { allowLoopback: true, timeoutMs: 1000 };

describe('webhook receiver URLs (https only in production, http to loopback in development, no private networks)', () => {
  it('refuses in production http, loopback by address or by name, private, link-local and metadata targets', async () => {
    expect(await targetProblem('http://8.8.8.8/hook', production)).toBe('http is not allowed');
    expect(await targetProblem('https://127.0.0.1/hook', production)).toBe('resolves to a private address');
    expect(await targetProblem('https://localhost/hook', production)).toBe('resolves to a private address');
    expect(await targetProblem('https://[::1]/hook', production)).toBe('resolves to a private address');
    expect(await targetProblem('https://10.2.3.4/hook', production)).toBe('resolves to a private address');
    expect(await targetProblem('https://172.20.0.1/hook', production)).toBe('resolves to a private address');
    expect(await targetProblem('https://169.254.169.254/latest', production)).toBe('resolves to a private address');
    expect(await targetProblem('https://[::ffff:192.168.0.1]/x', production)).toBe('resolves to a private address');
    expect(await targetProblem('https://a:b@8.8.8.8/x', production)).toBe('credentials are not allowed in the URL');
    expect(await targetProblem('not a url', production)).toBe('is not a URL');
  });

  it('unwraps every IPv6 form that embeds an IPv4 address and allows only plain public unicast', async () => {
    const refused = [
      'https://[::7f00:1]/', 'https://[::127.0.0.1]/', 'https://[::a00:1]/', // IPv4-compatible ::/96
      'https://[::ffff:7f00:1]/', 'https://[::ffff:0:a00:1]/', // IPv4-mapped, RFC 6145
      'https://[2002:7f00:1::]/', 'https://[2002:c0a8:101::1]/', // 6to4 of 127.0.0.1, 192.168.1.1
      'https://[64:ff9b::7f00:1]/', 'https://[64:ff9b::a9fe:a9fe]/', 'https://[64:ff9b:1::808:808]/', // NAT64 of loopback, metadata; local-use NAT64
      'https://[2001:0:808:808::f5f5:f5fe]/', // Teredo, client 10.10.10.1
      'https://[fd00::1]/', 'https://[fe80::1]/', 'https://[::]/', 'https://[2001:db8::1]/', 'https://[4000::1]/', 'https://0.0.0.0/', 'https://192.175.48.1/',
    ];
    for (const url of refused) expect(await targetProblem(url, production), url).toBe('resolves to a private address');
    for (const url of ['https://[::ffff:8.8.8.8]/', 'https://[2002:808:808::1]/', 'https://[64:ff9b::808:808]/', 'https://[2a00:1450:4009:81f::200a]/']) {
      expect(await targetProblem(url, production), url).toBeUndefined();
    }
    expect(await targetProblem('ftp://8.8.8.8/x', production)).toBe('only https is allowed');
  });

  it('accepts a public https address in production and http to loopback only in development', async () => {
    expect(await targetProblem('https://8.8.8.8/hook', production)).toBeUndefined();
    expect(await targetProblem('http://127.0.0.1:5678/webhook/abc', development)).toBeUndefined();
    expect(await targetProblem('http://localhost:5678/webhook/abc', development)).toBeUndefined();
    expect(await targetProblem('http://8.8.8.8/hook', development)).toBe('http is not allowed');
    expect(await targetProblem('https://192.168.1.1/hook', development)).toBe('resolves to a private address');
  });

  it('on a public address allows only the web ports 443 and 8443; any port on loopback in development', async () => {
    expect(await targetProblem('https://8.8.8.8:22/', production)).toBe('port 22 is not allowed (only 443 or 8443)');
    for (const port of [21, 25, 80, 3306, 5432, 6379, 8080, 9200, 65535]) {
      expect(await targetProblem(`https://8.8.8.8:${port}/hook`, production), String(port)).toBe(`port ${port} is not allowed (only 443 or 8443)`);
    }
    expect(await targetProblem('https://[2a00:1450:4009:81f::200a]:22/', production)).toBe('port 22 is not allowed (only 443 or 8443)');
    expect(await targetProblem('https://8.8.8.8:443/hook', production)).toBeUndefined();
    expect(await targetProblem('https://8.8.8.8:8443/hook', production)).toBeUndefined();
    expect(await targetProblem('https://8.8.8.8:22/', development)).toBe('port 22 is not allowed (only 443 or 8443)');
    expect(await targetProblem('http://127.0.0.1:22/x', development)).toBeUndefined();
  });
});
