import { StringInterner } from './stringInterner';

/**
 * The prefix V8 puts on its trace lines: `[pid:isolate]`, or `[pid:isolate:N]` (Node 24's NVP and
 * heap-controller lines). The isolate is printed with C's `%p`: `0x2ee1fc00` on Linux and macOS,
 * `000001BB84659390` (upper-case, zero-padded, no `0x`) on Windows. Everything else is app output,
 * so this check decides what is passed through to the user untouched: it is strict, and it rejects
 * ordinary lines (`[INFO] …`, `[1, 2, 3]`, JSON arrays) within a few character comparisons.
 */

export interface IsolatePrefix {
  pid: number;
  isolate: string;
  /** Index just after the closing `]`. */
  end: number;
}

const OPEN_BRACKET = 91; // [
const CLOSE_BRACKET = 93; // ]
const COLON = 58;
const ZERO = 48;
const NINE = 57;
const LOWER_X = 120;

let pidScanned = 0;
let addressStart = 0;
let addressEnd = 0;
// Isolate strings seen so far (a process has a few: main thread, workers): reusing them saves an
// allocation per line and lets callers compare isolates by identity. Bounded for odd input.
const knownIsolates = new StringInterner(64);

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function isUpperHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 65 && c <= 70);
}

/** Index just after the prefix's `]`, or -1 when the line does not start with a V8 prefix. */
export function isolatePrefixEnd(line: string): number {
  if (line.charCodeAt(0) !== OPEN_BRACKET) return -1;
  let i = 1;
  let pid = 0;
  let c = line.charCodeAt(i);
  while (isDigit(c)) {
    pid = pid * 10 + (c - ZERO);
    c = line.charCodeAt(++i);
  }
  if (i === 1 || i > 11 || c !== COLON) return -1;
  addressStart = ++i;
  if (line.charCodeAt(i) === ZERO && line.charCodeAt(i + 1) === LOWER_X) {
    i += 2;
    const hexStart = i;
    while (isHex(line.charCodeAt(i))) i++;
    if (i === hexStart) return -1;
  } else {
    while (isUpperHex(line.charCodeAt(i))) i++;
    const digits = i - addressStart;
    if (digits !== 16 && digits !== 8) return -1;
  }
  addressEnd = i;
  c = line.charCodeAt(i);
  if (c === COLON) {
    const numberStart = ++i;
    while (isDigit(line.charCodeAt(i))) i++;
    if (i === numberStart) return -1;
    c = line.charCodeAt(i);
  }
  if (c !== CLOSE_BRACKET) return -1;
  pidScanned = pid;
  return i + 1;
}

/** Fills `out` (reused by the caller to avoid an allocation per line); false when there is no prefix. */
export function readIsolatePrefix(line: string, out: IsolatePrefix): boolean {
  const end = isolatePrefixEnd(line);
  if (end < 0) return false;
  out.pid = pidScanned;
  out.isolate = knownIsolates.intern(line.slice(addressStart, addressEnd));
  out.end = end;
  return true;
}
