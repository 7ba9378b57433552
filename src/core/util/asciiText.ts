/**
 * Whether every character of `text` is ASCII (below U+0080): then its UTF-8 length is its length,
 * which V8 computes far faster than a regex scans megabytes (and a replace copies them). Escapers
 * use it to skip their pass over JSON that holds nothing to escape.
 */
export function isAsciiText(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') === text.length;
}
