import { Buffer } from 'node:buffer';
import { CharCode } from '../util/charCodes';
const { CLOSE_BRACE, CLOSE_BRACKET, COLON, QUOTE, COMMA, MINUS, ZERO } = CharCode;

/**
 * Fast path for the bulk of a long profile: V8 ends the file with `"samples":[…],"timeDeltas":[…]}`,
 * millions of integers that `JSON.parse` turns into arrays of boxed values at about twice the cost of
 * scanning them straight into typed arrays. So those trailing top-level members are cut off the text
 * and scanned here, and `JSON.parse` gets only the rest.
 *
 * All or nothing: anything unexpected (another layout, pretty-printing inside numbers, fractions,
 * huge values, a stray character) returns null and the caller parses the whole text as usual, so
 * this never decides what a malformed file means.
 *
 * Why the cut is safe: scanning backwards from the final `}`, each member is `"key":[digits, commas,
 * minus signs, whitespace]`. Those characters contain no quote or bracket, so nothing after the
 * key's opening quote can be inside a string or a nested value; and the opening quote follows a
 * comma, not a backslash, so it really opens the key. If that comma were itself inside a string, the
 * rest would end mid-string and fail to parse, which sends the caller down the ordinary path.
 */

export interface TrailingNumberArrays {
  /** The text without the cut members: a JSON object again. */
  rest: string;
  /** Where the cut starts in the original text (`rest` is `text.slice(0, restEnd)` + `}`). */
  restEnd: number;
  /** Only the members that were cut. */
  samples?: Int32Array;
  timeDeltas?: Int32Array;
}

type Key = 'samples' | 'timeDeltas';
const KEYS = new Set<string>(['samples', 'timeDeltas']);

/** Below this size the ordinary path is as fast and there is nothing to gain. */
const WORTH_IT_CHARS = 1 << 20;

/** What the cut reads of its input, backwards over a few keys: a text, or ASCII bytes (the same offsets). */
interface Source {
  length: number;
  code(i: number): number;
  lastIndexOf(char: string, from: number): number;
  slice(start: number, end: number): string;
}

export function cutTrailingNumberArrays(text: string): TrailingNumberArrays | null {
  const source: Source = { length: text.length, code: (i) => text.charCodeAt(i), lastIndexOf: (c, from) => text.lastIndexOf(c, from), slice: (a, b) => text.slice(a, b) };
  // The arrays are copied to bytes to be scanned: indexing a byte array is cheaper than `charCodeAt`,
  // enough to pay for the copy several times over. UTF-8, not Latin-1: any non-ASCII character
  // becomes bytes ≥ 0x80, which are rejected, rather than a low byte that could pass for a digit.
  const cut = cutWith(source, (open, close) => {
    const bytes = Buffer.from(text.slice(open, close + 1), 'utf8');
    return scanInt32s(bytes, 0, bytes.length - 1);
  });
  return cut && { rest: `${text.slice(0, cut.restEnd)}}`, ...cut };
}

/**
 * The same for a file's bytes, all ASCII (so byte offsets are the text's): scanned where they are,
 * with no text made of them.
 */
export function cutTrailingNumberArraysInBytes(bytes: Buffer): Omit<TrailingNumberArrays, 'rest'> | null {
  const source: Source = { length: bytes.length, code: (i) => bytes[i] ?? NaN, lastIndexOf: (c, from) => bytes.lastIndexOf(c.charCodeAt(0), from), slice: (a, b) => bytes.toString('latin1', a, b) };
  return cutWith(source, (open, close) => scanInt32s(bytes, open, close));
}

function cutWith(text: Source, scan: (open: number, close: number) => Int32Array | null): Omit<TrailingNumberArrays, 'rest'> | null {
  if (text.length < WORTH_IT_CHARS) return null;
  const objectEnd = skipSpaceBack(text, text.length - 1);
  if (text.code(objectEnd) !== CLOSE_BRACE) return null;

  const members: Array<{ key: Key; open: number; close: number }> = [];
  let cutAt = -1;
  let at = objectEnd - 1;
  while (members.length < KEYS.size) {
    const close = skipSpaceBack(text, at);
    if (text.code(close) !== CLOSE_BRACKET) break;
    const open = text.lastIndexOf('[', close);
    const colon = skipSpaceBack(text, open - 1);
    if (open < 0 || text.code(colon) !== COLON) break;
    const keyEnd = skipSpaceBack(text, colon - 1);
    if (text.code(keyEnd) !== QUOTE) break;
    const keyStart = text.lastIndexOf('"', keyEnd - 1);
    const key = text.slice(keyStart + 1, keyEnd);
    const comma = skipSpaceBack(text, keyStart - 1);
    if (keyStart < 0 || !KEYS.has(key) || members.some((m) => m.key === key)) break;
    if (text.code(comma) !== COMMA) break;
    members.push({ key: key as Key, open, close });
    cutAt = comma;
    at = comma - 1;
  }
  if (members.length === 0) return null;

  const result: Omit<TrailingNumberArrays, 'rest'> = { restEnd: cutAt };
  for (const { key, open, close } of members) {
    const values = scan(open, close);
    if (!values) return null;
    result[key] = values;
  }
  return result;
}

const INT32_LIMIT = 2 ** 31;

/**
 * The most samples (or time deltas) scanned here: 50 million is 14 hours at V8's default 1 ms.
 * Past it the caller's ordinary path sees the whole text, whose value count refuses it.
 */
export const MAX_TRAILING_VALUES = 50_000_000;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpaceBack(text: Source, i: number): number {
  while (i >= 0 && isSpace(text.code(i))) i--;
  return i;
}

/**
 * The integers between `[` at `bytes[open]` and `]` at `bytes[close]`, in JSON syntax (no leading
 * zeros); null for anything else (fractions, exponents, values outside 32 bits, any byte ≥ 0x80).
 * One element type only, so the store stays monomorphic: this loop is why the fast path exists.
 */
function scanInt32s(bytes: Uint8Array, open: number, close: number): Int32Array | null {
  const end = close; // the ']'
  let capacity = 4096;
  let out = new Int32Array(capacity);
  let count = 0;
  let i = open + 1;
  let c = bytes[i]!;
  while (isSpace(c)) c = bytes[++i]!;
  if (c === CLOSE_BRACKET) return i === end ? out.subarray(0, 0) : null;
  for (;;) {
    const negative = c === MINUS;
    if (negative) c = bytes[++i]!;
    // `(c - '0') >>> 0` is a digit only for '0'…'9'; the scan stops at the final ']' at the latest.
    let digit = (c - ZERO) >>> 0;
    if (digit > 9) return null;
    const start = i;
    let value = digit;
    while ((digit = (bytes[++i]! - ZERO) >>> 0) <= 9) value = value * 10 + digit;
    // JSON has no leading zeros; ten digits is as long as a 32-bit value gets.
    const length = i - start;
    if (length > 1 && (bytes[start] === ZERO || length > 10 || value >= INT32_LIMIT)) return null;
    if (count === MAX_TRAILING_VALUES) return null;
    if (count === capacity) {
      // Grow to what the rest of the array needs at the density seen so far, plus a margin.
      capacity = Math.min(Math.ceil((count * (end - open)) / (i - open)) + 4096, MAX_TRAILING_VALUES);
      const grown = new Int32Array(capacity);
      grown.set(out);
      out = grown;
    }
    out[count++] = negative ? -value : value;
    c = bytes[i]!;
    if (c === COMMA) {
      c = bytes[++i]!;
      // Whitespace (pretty-printed files) is legal but kept off the hot path; the top of the loop
      // rejects anything after the comma that does not start a number (such as `1,]`).
      while (isSpace(c)) c = bytes[++i]!;
      continue;
    }
    while (isSpace(c)) c = bytes[++i]!;
    if (c === COMMA) {
      c = bytes[++i]!;
      while (isSpace(c)) c = bytes[++i]!;
      continue;
    }
    return c === CLOSE_BRACKET && i === end ? out.subarray(0, count) : null;
  }
}
