/**
 * Safe highlighting of search hits (docs/insight.md "Search"): the text is HTML-escaped first and
 * only then are the matching words wrapped in <mark>, so stored text can never inject markup.
 * A word matches a query token when it starts with it, or (tokens of 4+ letters) is within one
 * edit of it (typos), or when the query without spaces equals the word pair (postcodes "ls62ab").
 */
import { escapeHtml } from '../../../lib/html.ts';

/** Levenshtein distance, stopping early above `max`. */
export function editDistance(a: string, b: string, max = 1): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]!);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Lower-case word tokens of a query (letters and digits). */
export function tokens(q: string): string[] {
  return [...new Set(q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
}

function wordMatches(word: string, toks: string[]): boolean {
  const w = word.toLowerCase();
  return toks.some((t) => w.startsWith(t) || (t.length >= 4 && w.length >= 3 && editDistance(w, t) <= 1));
}

/**
 * The text, HTML-escaped, with matching words wrapped in <mark>.
 * @returns { html, matched } where matched says whether anything was marked
 */
export function highlight(text: string, q: string): { html: string; matched: boolean } {
  const toks = tokens(q);
  const compact = q.toLowerCase().replace(/\s+/g, '');
  const parts = text.split(/([\p{L}\p{N}]+)/u);
  let matched = false;
  const marked = new Set<number>();
  for (let i = 1; i < parts.length; i += 2) {
    if (wordMatches(parts[i]!, toks)) marked.add(i);
    // A postcode typed without its space: mark the outward and inward codes together.
    if (i + 2 < parts.length && parts[i + 1] === ' ' && compact.length >= 5 && `${parts[i]}${parts[i + 2]}`.toLowerCase() === compact) {
      marked.add(i).add(i + 2);
    }
  }
  const html = parts
    .map((p, i) => {
      if (!marked.has(i)) return escapeHtml(p);
      matched = true;
      return `<mark>${escapeHtml(p)}</mark>`;
    })
    .join('');
  return { html, matched };
}

/** Up to `width` characters of `text` around its first matching word, with ellipses. */
export function excerpt(text: string, q: string, width = 140): string {
  if (text.length <= width) return text;
  const toks = tokens(q);
  const re = /[\p{L}\p{N}]+/gu;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (wordMatches(m[0], toks)) {
      at = m.index;
      break;
    }
  }
  const start = Math.max(0, at - Math.floor(width / 3));
  const end = Math.min(text.length, start + width);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
