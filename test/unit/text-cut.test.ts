/**
 * Cutting people's text by grapheme (src/lib/text-cut.ts, docs/messaging.md "Cutting text"): never
 * a lone surrogate, never half a flag or a family, never more UTF-16 units than asked.
 */
import { describe, expect, it } from 'vitest';
import { cutGraphemes, truncateText } from '../../src/lib/text-cut.ts';

describe('text cut by grapheme', () => {
  it('keeps text that fits, whatever it holds', () => {
    expect(cutGraphemes('Boiler fixed 👍', 15)).toBe('Boiler fixed 👍');
    expect(truncateText('short', 280)).toBe('short');
  });

  it('never splits a surrogate pair: 150 emoji cut at 277 units keep 138 whole ones', () => {
    const cut = cutGraphemes('🔧'.repeat(150), 277);
    expect(cut).toBe('🔧'.repeat(138));
    expect(JSON.parse(JSON.stringify(cut))).toBe(cut);
    expect(truncateText('🔧'.repeat(150), 280)).toBe(`${'🔧'.repeat(138)}...`);
  });

  it('never splits a grapheme cluster: a flag, a family, a letter and its accent stay whole or go', () => {
    expect(cutGraphemes('ab🇬🇧', 4)).toBe('ab');
    expect(cutGraphemes('ab🇬🇧', 6)).toBe('ab🇬🇧');
    const family = '👩‍👩‍👧';
    expect(cutGraphemes(`x${family}`, family.length)).toBe('x');
    expect(cutGraphemes('Zoe\u0301', 3)).toBe('Zo');
  });

  it('the ellipsis counts towards the limit', () => {
    expect(truncateText('abcdefghij', 8)).toBe('abcde...');
    expect(truncateText('abcdefghij', 8, '…')).toBe('abcdefg…');
    expect(truncateText('abcdefghij', 2)).toBe('ab');
  });
});
