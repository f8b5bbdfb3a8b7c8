/**
 * Cutting text to a length without breaking a character (docs/messaging.md "Cutting text"). A cut
 * by UTF-16 units (`slice`) can split a surrogate pair (an emoji, most CJK extension characters)
 * and leave a lone surrogate, which JSON carries as `\ud83d` and PostgreSQL's jsonb refuses
 * ("invalid input syntax for type json"), and which a UTF-8 encoder turns into U+FFFD. It can also
 * split a grapheme cluster (a flag, a family emoji, a letter and its accent), which a reader sees
 * as a different character. Every cut of people's text here is by grapheme (Intl.Segmenter).
 */

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The longest prefix of `text` made of whole graphemes that fits in `max` UTF-16 units (the
 * unit JavaScript strings, SMS length rules for UCS-2 and the database's text limits count in).
 * @param text any string (a lone surrogate already in it is kept as it is)
 * @param max the limit, in UTF-16 code units (0 or more)
 * @returns `text` itself when it fits, else the cut prefix (possibly shorter than `max`)
 */
export function cutGraphemes(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { segment, index } of graphemes.segment(text)) {
    if (index + segment.length > max) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}

/**
 * `text` cut to at most `max` UTF-16 units by whole graphemes, ending with `ellipsis` when cut
 * (the ellipsis counts towards `max`; a limit shorter than the ellipsis cuts without one).
 * @param text the text to shorten
 * @param max the limit in UTF-16 units, including the ellipsis
 * @param ellipsis what marks the cut (default `...`)
 */
export function truncateText(text: string, max: number, ellipsis = '...'): string {
  if (text.length <= max) return text;
  if (max < ellipsis.length) return cutGraphemes(text, max);
  return `${cutGraphemes(text, max - ellipsis.length)}${ellipsis}`;
}
