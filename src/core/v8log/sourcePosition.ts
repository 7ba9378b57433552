/**
 * Source positions as V8's log writes them: `url:line:col` (1-based), and the `code-deopt` form
 * `<url:line:col>( inlined at <url:line:col>)*` (innermost first).
 */
import { fileURLToPath } from 'node:url';
import type { LogPosition } from './types';

/** `url:line:col`. Line and column are taken from the end, so `C:\x.js:3:4` and `file:///C:/…` survive. */
export function parseLocation(text: string): LogPosition | null {
  const m = /^(.*):(\d+):(\d+)$/s.exec(text);
  if (m === null) return null;
  const sourceUrl = m[1]!;
  return { url: urlToPath(sourceUrl), sourceUrl, line: Number(m[2]), column: Number(m[3]) };
}

/** Used for an `inlined at` entry V8 could not place, so the chain keeps its length. */
const NO_POSITION: LogPosition = { url: '', sourceUrl: '', line: 0, column: 0 };

export interface DeoptPositionChain {
  /** Where the deopt happened; null for `<unknown>` or text we cannot read. */
  innermost: LogPosition | null;
  /** The call sites it was inlined at, innermost first. */
  inlinedAt: LogPosition[];
}

const INLINED_AT = ' inlined at <';

/**
 * Parses an (already unescaped) `code-deopt` position. A loop rather than one regex: paths may
 * contain `>` or `:`, and the chain has any length.
 */
export function parseDeoptPosition(text: string): DeoptPositionChain {
  const parts: string[] = [];
  let pos = 0;
  while (pos < text.length && text[pos] === '<') {
    const end = closingBracket(text, pos + 1);
    if (end < 0) break;
    parts.push(text.slice(pos + 1, end));
    if (end === text.length - 1) break;
    pos = end + INLINED_AT.length; // now at the `<` of the next entry
  }
  if (parts.length === 0) return { innermost: null, inlinedAt: [] };
  const [first, ...rest] = parts;
  return {
    innermost: first === undefined || first === 'unknown' ? null : parseLocation(first),
    inlinedAt: rest.map((p) => parseLocation(p) ?? NO_POSITION),
  };
}

/** The `>` that ends an entry: the one followed by the end of the text or by ` inlined at <`. */
function closingBracket(text: string, from: number): number {
  let i = text.indexOf('>', from);
  while (i >= 0) {
    if (i === text.length - 1 || text.startsWith(INLINED_AT, i + 1)) return i;
    i = text.indexOf('>', i + 1);
  }
  return -1;
}

/**
 * A `file://` URL (ESM scripts) becomes a file path with percent-decoding; anything else (plain
 * CommonJS paths, `node:…`, `https://…`) is returned as it is. Drive-letter URLs are read as
 * Windows paths on any OS, so a log recorded on Windows still names its files correctly here.
 */
export function urlToPath(url: string): string {
  if (!url.startsWith('file:')) return url;
  try {
    const windows = process.platform === 'win32' || /^file:\/\/\/[A-Za-z](:|%3A)/i.test(url);
    return fileURLToPath(url, { windows });
  } catch {
    return url; // e.g. a host on POSIX, or an encoded `/`: keep what V8 wrote
  }
}
