import { Buffer } from 'node:buffer';
import type { GcEvent, IncrementalMarking } from './gcEvent';
import { StringInterner } from './stringInterner';

/*
 * `--trace-gc` lines, Node 18–26 (format strings from the binaries, see gc.md §2):
 *   [pid:isolate] %8.0f ms: TYPE[ (qualifier)]* A (B) -> C (D) MB, [pooled: N MB, ]X / Y ms
 *     [(+ A ms in N steps since start of marking, biggest step B ms, walltime since start of marking W ms) ]
 *     (average mu = M, current mu = C) reason; collectorReason
 * Node 18 prints "Mark-sweep" for the full GC and one decimal for the pause ("9.5 / 0.0 ms"). The
 * qualifiers were " (interleaved)" and " (reduce)" up to Node 24; Node 26 adds " (during sweeping)"
 * (a scavenge while the last Mark-Compact's sweeping still ran) and names a full GC that incremental
 * marking finished "Incremental Mark-Compact". Any parenthesised qualifier is read, so the next one
 * V8 adds does not turn its lines into unparsed ones.
 *
 * The grammar, exactly: the regular expression this scanner replaced, which the tests keep as the
 * oracle it is held against (N is `\d+(?:\.\d*)?`):
 *   ^\[(\d{1,10}):(0x[0-9a-fA-F]+|[0-9A-F]{8}|[0-9A-F]{16})(?::\d+)?\] *N ms: TYPE((?: \([A-Za-z][\w -]*\))*)
 *   ␣N \(N\) -> N \(N\) MB, (?:pooled: N MB, )?N \/ N ms *
 *   (?:\(\+ N ms in (\d+) steps since start of marking, biggest step N ms(?:, walltime since start of marking N ms)?\) *)?
 *   \(average mu = N, current mu = N\) *([^;\r]*)(?:; *([^\r]*))?\r?$
 * TYPE is `[A-Z][A-Za-z -]*?`: it can only end at the last space before the first character that
 * cannot be part of it (the qualifiers' '(' or the heap size's first digit).
 *
 * Read from bytes, in place: a saved log is scanned in the chunks it is read in, without a string
 * per line, into a record reused from line to line rather than an object per line (traces reach
 * millions of lines; gcEventTable.ts keeps them as columns). V8's lines are ASCII; the free text
 * (the reasons) is decoded as UTF-8, which is what the same line read as text would hold. A string
 * line is encoded first (parseTraceGcLine), four times faster than the regular expression was.
 */

/** One line's fields, as scanTraceGcLine fills them. */
export interface TraceGcFields {
  pid: number;
  isolate: string;
  timeMs: number;
  type: string;
  /** The qualifiers as printed, " (interleaved) (reduce)"; '' when there are none. */
  qualifiers: string;
  heapBeforeMB: number;
  committedBeforeMB: number;
  heapAfterMB: number;
  committedAfterMB: number;
  /** NaN when not printed. */
  pooledMB: number;
  pauseMs: number;
  externalMs: number;
  /** NaN when the line has no incremental marking part. */
  markingMs: number;
  markingSteps: number;
  markingBiggestStepMs: number;
  /** NaN when not printed. */
  markingWallMs: number;
  muAverage: number;
  muCurrent: number;
  reason: string;
  collectorReason: string;
}

export function newTraceGcFields(): TraceGcFields {
  return {
    pid: 0, isolate: '', timeMs: 0, type: '', qualifiers: '', heapBeforeMB: 0, committedBeforeMB: 0, heapAfterMB: 0, committedAfterMB: 0, pooledMB: NaN,
    pauseMs: 0, externalMs: 0, markingMs: NaN, markingSteps: 0, markingBiggestStepMs: 0, markingWallMs: NaN, muAverage: 0, muCurrent: 0, reason: '', collectorReason: '',
  };
}

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const MS_COLON = ascii(' ms: ');
const ARROW = ascii(') -> ');
const MB_COMMA = ascii(') MB, ');
const POOLED = ascii('pooled: ');
const MB_COMMA_2 = ascii(' MB, ');
const SLASH = ascii(' / ');
const MARKING_IN = ascii(' ms in ');
const MARKING_STEPS = ascii(' steps since start of marking, biggest step ');
const MARKING_WALL = ascii(', walltime since start of marking ');
const MU_AVERAGE = ascii('(average mu = ');
const MU_CURRENT = ascii(', current mu = ');

const SPACE = 0x20;
const CR = 0x0d;
const SEMICOLON = 0x3b;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;

// Exact powers of ten: an integer below 2^53 divided by one of these is correctly rounded, so
// "136.9" gives the same double as Number("136.9").
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** Where the last number read by `decimal` or `integer` ended. */
let numberEnd = 0;

/** `\d+(?:\.\d*)?` at `i` as a number (the same double as Number() of its text); NaN if there is none. */
function decimal(b: Buffer, i: number, end: number): number {
  const start = i;
  let value = 0;
  let d = 0;
  while (i < end && (d = b[i]! - 48) >= 0 && d <= 9) {
    value = value * 10 + d;
    i++;
  }
  if (i === start) return NaN;
  let decimals = 0;
  if (i < end && b[i] === 0x2e /* . */) {
    i++;
    while (i < end && (d = b[i]! - 48) >= 0 && d <= 9) {
      value = value * 10 + d;
      decimals++;
      i++;
    }
  }
  numberEnd = i;
  if (i - start > 15) return Number(b.toString('latin1', start, i)); // beyond exact integers: let V8 round
  return decimals > 0 ? value / POW10[decimals]! : value;
}

/** `\d+` at `i`; NaN if there is none. */
function integer(b: Buffer, i: number, end: number): number {
  const start = i;
  let value = 0;
  let d = 0;
  while (i < end && (d = b[i]! - 48) >= 0 && d <= 9) {
    value = value * 10 + d;
    i++;
  }
  if (i === start) return NaN;
  numberEnd = i;
  return i - start > 15 ? Number(b.toString('latin1', start, i)) : value;
}

/** Whether `b[i, end)` continues with `literal`. */
function follows(b: Buffer, i: number, end: number, literal: Uint8Array): boolean {
  const n = literal.length;
  if (i + n > end) return false;
  for (let k = 0; k < n; k++) if (b[i + k] !== literal[k]) return false;
  return true;
}

/** Whether `b[i, end)` continues with " ms". */
function ms(b: Buffer, i: number, end: number): boolean {
  return i + 2 < end && b[i] === SPACE && b[i + 1] === 0x6d && b[i + 2] === 0x73;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function isUpperHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70);
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** `[A-Za-z -]`: what a type is made of. */
function isTypeChar(c: number): boolean {
  return isLetter(c) || c === SPACE || c === 45;
}

/** `[\w -]`: what a qualifier is made of. */
function isQualifierChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === SPACE || c === 45;
}

/**
 * A string field with few distinct values (isolate, type, qualifiers, reasons), found by its bytes:
 * a value seen before costs a hash and a comparison of its bytes, never a string; a new one is
 * decoded and interned (one independent string per distinct value, not a view into the chunk).
 */
class KnownTexts {
  private readonly byHash = new Map<number, { bytes: Uint8Array; value: string }>();
  private last: { bytes: Uint8Array; value: string } = { bytes: new Uint8Array(0), value: '' };

  constructor(private readonly interner: StringInterner, private readonly trim: boolean, private readonly capacity = 256) {}

  read(b: Buffer, start: number, end: number): string {
    const n = end - start;
    if (sameBytes(b, start, n, this.last.bytes)) return this.last.value;
    let hash = 0x811c9dc5;
    for (let k = start; k < end; k++) hash = Math.imul(hash ^ b[k]!, 0x01000193);
    const known = this.byHash.get(hash);
    if (known !== undefined && sameBytes(b, start, n, known.bytes)) return (this.last = known).value;
    const text = b.toString('utf8', start, end);
    const entry = { bytes: Uint8Array.prototype.slice.call(b, start, end), value: this.interner.intern(this.trim ? trimEnd(text) : text) };
    // A colliding hash keeps its first value; past capacity (odd input) values are not remembered.
    if (known === undefined && this.byHash.size < this.capacity) this.byHash.set(hash, entry);
    return (this.last = entry).value;
  }
}

function sameBytes(b: Buffer, start: number, n: number, bytes: Uint8Array): boolean {
  if (bytes.length !== n) return false;
  for (let k = 0; k < n; k++) if (b[start + k] !== bytes[k]) return false;
  return true;
}

/** Trailing spaces are rare ("allocation failure " in old output); trimEnd would copy every time. */
function trimEnd(s: string): string {
  return s.length > 0 && s.charCodeAt(s.length - 1) === SPACE ? s.trimEnd() : s;
}

const reasons = new StringInterner();
const isolateText = new KnownTexts(new StringInterner(64), false);
const typeText = new KnownTexts(new StringInterner(64), false);
const qualifierText = new KnownTexts(new StringInterner(64), false);
const reasonText = new KnownTexts(reasons, true);
const collectorText = new KnownTexts(reasons, true);

/**
 * Reads `b[start, end)` (one line without its newline; a trailing '\r' is allowed) into `out`.
 * Returns false, with `out` partly written, when it is not a --trace-gc line.
 */
export function scanTraceGcLine(b: Buffer, start: number, end: number, out: TraceGcFields): boolean {
  let i = start;
  if (i >= end || b[i] !== 0x5b /* [ */) return false;
  i++;

  // [pid:isolate(:N)?]
  const pid = integer(b, i, end);
  if (pid !== pid || numberEnd - i > 10) return false;
  i = numberEnd;
  if (i >= end || b[i] !== 0x3a /* : */) return false;
  i++;
  const isolateStart = i;
  if (i + 1 < end && b[i] === 0x30 && b[i + 1] === 0x78 /* 0x */) {
    i += 2;
    const digits = i;
    while (i < end && isHex(b[i]!)) i++;
    if (i === digits) return false;
  } else {
    while (i < end && isUpperHex(b[i]!)) i++;
    if (i - isolateStart !== 8 && i - isolateStart !== 16) return false;
  }
  const isolateEnd = i;
  if (i < end && b[i] === 0x3a /* : */) {
    const n = integer(b, i + 1, end);
    if (n !== n) return false;
    i = numberEnd;
  }
  if (i >= end || b[i] !== 0x5d /* ] */) return false;
  i++;

  // " *N ms: "
  while (i < end && b[i] === SPACE) i++;
  const timeMs = decimal(b, i, end);
  if (timeMs !== timeMs || !follows(b, numberEnd, end, MS_COLON)) return false;
  i = numberEnd + MS_COLON.length;

  // TYPE: up to the last space before the first character that cannot be part of it.
  const typeStart = i;
  if (i >= end || !(b[i]! >= 65 && b[i]! <= 90)) return false;
  i++;
  while (i < end && isTypeChar(b[i]!)) i++;
  const typeEnd = i - 1;
  if (typeEnd <= typeStart || b[typeEnd] !== SPACE) return false;

  // Qualifiers: " (a)" any number of times, then " " and the first heap size.
  i = typeEnd;
  while (i + 1 < end && b[i] === SPACE && b[i + 1] === OPEN_PAREN) {
    i += 2;
    if (i >= end || !isLetter(b[i]!)) return false;
    i++;
    while (i < end && isQualifierChar(b[i]!)) i++;
    if (i >= end || b[i] !== CLOSE_PAREN) return false;
    i++;
  }
  const qualifierEnd = i;
  if (i >= end || b[i] !== SPACE) return false;

  // "A (B) -> C (D) MB, [pooled: N MB, ]X / Y ms *"
  const heapBeforeMB = decimal(b, i + 1, end);
  if (heapBeforeMB !== heapBeforeMB) return false;
  i = numberEnd;
  if (i + 1 >= end || b[i] !== SPACE || b[i + 1] !== OPEN_PAREN) return false;
  const committedBeforeMB = decimal(b, i + 2, end);
  if (committedBeforeMB !== committedBeforeMB || !follows(b, numberEnd, end, ARROW)) return false;
  const heapAfterMB = decimal(b, numberEnd + ARROW.length, end);
  if (heapAfterMB !== heapAfterMB) return false;
  i = numberEnd;
  if (i + 1 >= end || b[i] !== SPACE || b[i + 1] !== OPEN_PAREN) return false;
  const committedAfterMB = decimal(b, i + 2, end);
  if (committedAfterMB !== committedAfterMB || !follows(b, numberEnd, end, MB_COMMA)) return false;
  i = numberEnd + MB_COMMA.length;
  let pooledMB = NaN;
  if (follows(b, i, end, POOLED)) {
    pooledMB = decimal(b, i + POOLED.length, end);
    if (pooledMB !== pooledMB || !follows(b, numberEnd, end, MB_COMMA_2)) return false;
    i = numberEnd + MB_COMMA_2.length;
  }
  const pauseMs = decimal(b, i, end);
  if (pauseMs !== pauseMs || !follows(b, numberEnd, end, SLASH)) return false;
  const externalMs = decimal(b, numberEnd + SLASH.length, end);
  if (externalMs !== externalMs || !ms(b, numberEnd, end)) return false;
  i = numberEnd + 3;
  while (i < end && b[i] === SPACE) i++;

  // Incremental marking (Mark-Compact only).
  let markingMs = NaN;
  let markingSteps = 0;
  let markingBiggestStepMs = 0;
  let markingWallMs = NaN;
  if (i + 1 < end && b[i] === OPEN_PAREN && b[i + 1] === 0x2b /* + */) {
    if (i + 2 >= end || b[i + 2] !== SPACE) return false;
    markingMs = decimal(b, i + 3, end);
    if (markingMs !== markingMs || !follows(b, numberEnd, end, MARKING_IN)) return false;
    markingSteps = integer(b, numberEnd + MARKING_IN.length, end);
    if (markingSteps !== markingSteps || !follows(b, numberEnd, end, MARKING_STEPS)) return false;
    markingBiggestStepMs = decimal(b, numberEnd + MARKING_STEPS.length, end);
    if (markingBiggestStepMs !== markingBiggestStepMs || !ms(b, numberEnd, end)) return false;
    i = numberEnd + 3;
    if (follows(b, i, end, MARKING_WALL)) {
      markingWallMs = decimal(b, i + MARKING_WALL.length, end);
      if (markingWallMs !== markingWallMs || !ms(b, numberEnd, end)) return false;
      i = numberEnd + 3;
    }
    if (i >= end || b[i] !== CLOSE_PAREN) return false;
    i++;
    while (i < end && b[i] === SPACE) i++;
  }

  // Mutator utilisation: printed by every Node since 2017, and requiring it rejects most lines cut short.
  if (!follows(b, i, end, MU_AVERAGE)) return false;
  const muAverage = decimal(b, i + MU_AVERAGE.length, end);
  if (muAverage !== muAverage || !follows(b, numberEnd, end, MU_CURRENT)) return false;
  const muCurrent = decimal(b, numberEnd + MU_CURRENT.length, end);
  if (muCurrent !== muCurrent) return false;
  i = numberEnd;
  if (i >= end || b[i] !== CLOSE_PAREN) return false;
  i++;
  while (i < end && b[i] === SPACE) i++;

  // reason[; collectorReason], then at most a '\r' before the end.
  const reasonStart = i;
  let c = 0;
  while (i < end && (c = b[i]!) !== SEMICOLON && c !== CR) i++;
  const reasonEnd = i;
  let collectorStart = i;
  let collectorEnd = i;
  if (i < end && c === SEMICOLON) {
    i++;
    while (i < end && b[i] === SPACE) i++;
    collectorStart = i;
    while (i < end && b[i] !== CR) i++;
    collectorEnd = i;
  }
  if (i < end && !(i + 1 === end && b[i] === CR)) return false;

  out.pid = pid;
  out.isolate = isolateText.read(b, isolateStart, isolateEnd);
  out.timeMs = timeMs;
  out.type = typeText.read(b, typeStart, typeEnd);
  out.qualifiers = qualifierEnd === typeEnd ? '' : qualifierText.read(b, typeEnd, qualifierEnd);
  out.heapBeforeMB = heapBeforeMB;
  out.committedBeforeMB = committedBeforeMB;
  out.heapAfterMB = heapAfterMB;
  out.committedAfterMB = committedAfterMB;
  out.pooledMB = pooledMB;
  out.pauseMs = pauseMs;
  out.externalMs = externalMs;
  out.markingMs = markingMs;
  out.markingSteps = markingSteps;
  out.markingBiggestStepMs = markingBiggestStepMs;
  out.markingWallMs = markingWallMs;
  out.muAverage = muAverage;
  out.muCurrent = muCurrent;
  out.reason = reasonText.read(b, reasonStart, reasonEnd);
  out.collectorReason = collectorEnd === collectorStart ? '' : collectorText.read(b, collectorStart, collectorEnd);
  return true;
}

/** The qualifiers of a " (a) (b)" text, one shared array per distinct text (there are a handful). */
const qualifierLists = new Map<string, readonly string[]>();
export function qualifiersOf(text: string): readonly string[] {
  let list = qualifierLists.get(text);
  if (list === undefined) {
    list = Object.freeze(text.slice(2, -1).split(') ('));
    // Bounded: V8 prints a few kinds; anything past that is not worth remembering.
    if (qualifierLists.size < 64) qualifierLists.set(text, list);
  }
  return list;
}

/** The " (a) (b)" text of a list of qualifiers ('' for none). */
export function qualifierTextOf(list: readonly string[]): string {
  return list.length === 0 ? '' : ` (${list.join(') (')})`;
}

/** Whether a qualifiers text (" (a) (b)") holds `name`. */
export function hasQualifier(text: string, name: string): boolean {
  return text.length > 0 && text.includes(`(${name})`);
}

/** A line's bytes for the scanner: one buffer reused, grown for a longer line. */
let lineBytes = Buffer.allocUnsafe(4096);

/** The UTF-8 bytes of `line` in a shared buffer (valid until the next call); their length. */
export function encodeLine(line: string): { bytes: Buffer; length: number } {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  if (3 * line.length > lineBytes.length) lineBytes = Buffer.allocUnsafe(Math.max(3 * line.length, 2 * lineBytes.length));
  return { bytes: lineBytes, length: lineBytes.write(line, 0, 'utf8') };
}

const scratch = newTraceGcFields();

export function parseTraceGcLine(line: string): GcEvent | null {
  if (line.charCodeAt(0) !== 0x5b /* [ */) return null;
  const { bytes, length } = encodeLine(line);
  return scanTraceGcLine(bytes, 0, length, scratch) ? traceGcEvent(scratch) : null;
}

// Mutator utilisation changes only at Mark-Compacts, so consecutive events share one object.
let lastMu: { average: number; current: number } = { average: NaN, current: NaN };

/** The event of a scanned line, as an object. */
export function traceGcEvent(f: TraceGcFields): GcEvent {
  if (lastMu.average !== f.muAverage || lastMu.current !== f.muCurrent) lastMu = { average: f.muAverage, current: f.muCurrent };
  return traceGcEventOf(f, lastMu);
}

/** The event of a --trace-gc line's fields, with its mutator utilisation object. */
export function traceGcEventOf(f: TraceGcFields, mu: { average: number; current: number }): GcEvent {
  const incrementalMarking: IncrementalMarking | null = Number.isNaN(f.markingMs)
    ? null
    : { ms: f.markingMs, steps: f.markingSteps, biggestStepMs: f.markingBiggestStepMs, wallMs: Number.isNaN(f.markingWallMs) ? null : f.markingWallMs };
  const q = f.qualifiers;
  return {
    pid: f.pid,
    isolate: f.isolate,
    timeMs: f.timeMs,
    type: f.type,
    interleaved: hasQualifier(q, 'interleaved'),
    reduce: hasQualifier(q, 'reduce'),
    ...(q.length > 0 ? { qualifiers: qualifiersOf(q) } : {}),
    heapBeforeMB: f.heapBeforeMB,
    committedBeforeMB: f.committedBeforeMB,
    heapAfterMB: f.heapAfterMB,
    committedAfterMB: f.committedAfterMB,
    pooledMB: Number.isNaN(f.pooledMB) ? null : f.pooledMB,
    pauseMs: f.pauseMs,
    externalMs: f.externalMs,
    incrementalMarking,
    mu,
    reason: f.reason,
    collectorReason: f.collectorReason,
    source: 'trace-gc',
  };
}
