import { Buffer } from 'node:buffer';
import type { GcEvent } from './gcEvent';
import { GcEventTable } from './gcEventTable';

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
 * Read from bytes, in place, straight into the row of an event table (gcEventTable.ts): a saved log
 * is scanned in the chunks it is read in, with no object and no string per line. The numbers go
 * from the bytes to the columns; the strings (isolate, type, qualifiers, reasons) are found by their
 * bytes in the table's text tables, and a part of the line that is the same as the last line's
 * (RememberedPart) is compared rather than read. V8's lines are ASCII; the free text (the reasons)
 * is decoded as UTF-8, which is what the same line read as text would hold. A string line is
 * encoded first (parseTraceGcLine).
 */

const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

// Bytes are compared with literals (0x20 ' ', 0x0d '\r', 0x3b ';', 0x28 '(', 0x29 ')') rather than
// module constants: run unbundled, a module constant is a variable checked on every use.

// Exact powers of ten: an integer below 2^53 divided by one of these is correctly rounded, so
// "136.9" gives the same double as Number("136.9").
const POW10 = new Float64Array([1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]);

/**
 * A part of the last line read whole, and what it gave in the table it went to. Consecutive lines
 * mostly repeat their prefix ("[pid:isolate]"), their type and qualifiers, and everything from the
 * mutator utilisation to the end (it changes at Mark-Compacts, the reasons seldom): the same bytes
 * read the same way, so a part equal to the last line's is compared, not read again.
 */
class RememberedPart {
  /** The part's bytes four at a time (little-endian), compared a word at a time; the last 0-3 in `bytes`. */
  private readonly words = new Uint32Array(64);
  private readonly bytes = new Uint8Array(256);
  /** -1: none. */
  length = -1;
  /** GcEventTable.id of the table the line went to: the indices below are that table's. */
  table = -1;
  index1 = 0;
  index2 = 0;
  index3 = 0;
  value1 = NaN;
  value2 = NaN;

  /** Whether `b[i, end)` starts with the part, for `table`; `view` is `b`'s (see TraceGcScanner.viewOf). */
  matches(b: Buffer, view: DataView, i: number, end: number, table: number): boolean {
    const n = this.length;
    if (table !== this.table || n < 0 || i + n > end) return false;
    const words = this.words;
    const whole = n >> 2;
    for (let w = 0; w < whole; w++) if (view.getUint32(i + 4 * w, true) !== words[w]) return false;
    const bytes = this.bytes;
    for (let k = 4 * whole; k < n; k++) if (b[i + k] !== bytes[k]) return false;
    return true;
  }

  remember(b: Buffer, view: DataView, start: number, end: number, table: number): void {
    const n = end - start;
    if (n > this.bytes.length) {
      this.length = -1;
      return;
    }
    const whole = n >> 2;
    for (let w = 0; w < whole; w++) this.words[w] = view.getUint32(start + 4 * w, true);
    // The last bytes, past the last whole word (`bytes` is read only there).
    for (let k = 4 * whole; k < n; k++) this.bytes[k] = b[start + k]!;
    this.length = n;
    this.table = table;
  }
}

/**
 * The scanner's state: the literals it compares, the parts of the last line. A class rather than
 * module variables, whose every use from a function pays a check that they are initialised when
 * the module is not bundled.
 */
class TraceGcScanner {
  /** Numbers that go into no column as they are read: the pid, marking, mutator utilisation. */
  private readonly scratch = new Float64Array(8);
  /** The buffer of the last line (a reader's chunk, refilled line after line) and a view of its bytes. */
  private buffer: Buffer | null = null;
  private view: DataView = new DataView(new ArrayBuffer(0));
  /** "[pid:isolate]": the isolate's index. */
  private readonly prefix = new RememberedPart();
  /** "Scavenge (interleaved) ", before the first heap size: the type's, the qualifiers' index, the flags. */
  private readonly type = new RememberedPart();
  /** "(average mu = …) reason; collector reason": the two mu values, the reasons' indices. */
  private readonly tail = new RememberedPart();
  private readonly pow10 = POW10;
  private readonly msColon = ascii(' ms: ');
  private readonly arrow = ascii(') -> ');
  private readonly mbComma = ascii(') MB, ');
  private readonly pooled = ascii('pooled: ');
  private readonly mbComma2 = ascii(' MB, ');
  private readonly slash = ascii(' / ');
  private readonly markingIn = ascii(' ms in ');
  private readonly markingSteps = ascii(' steps since start of marking, biggest step ');
  private readonly markingWall = ascii(', walltime since start of marking ');
  private readonly muAverage = ascii('(average mu = ');
  private readonly muCurrent = ascii(', current mu = ');

  /**
   * `\d+(?:\.\d*)?` at `i`, written to `into[at]` as a number (the same double as Number() of its
   * text); returns where it ends, or -1 if there is none. (The number is not returned: a double
   * returned by a call that is not inlined is a heap object of its own.)
   */
  private decimal(b: Buffer, i: number, end: number, into: Float64Array, at: number): number {
    const start = i;
    let value = 0;
    /** Where the '.' is; -1 while there is none. */
    let point = -1;
    for (; i < end; i++) {
      const d = b[i]! - 48;
      if (d >= 0 && d <= 9) value = value * 10 + d;
      else if (d === -2 /* . */ && point < 0 && i > start) point = i;
      else break;
    }
    if (i === start) return -1;
    // Beyond exact integers, V8 rounds (the rest: an exact integer over an exact power of ten is correctly rounded).
    if (i - start > 15) into[at] = Number(b.toString('latin1', start, i));
    else into[at] = point < 0 || point === i - 1 ? value : value / this.pow10[i - 1 - point]!;
    return i;
  }

  /** `\d+` at `i`, the same way. */
  private integer(b: Buffer, i: number, end: number, into: Float64Array, at: number): number {
    const start = i;
    let value = 0;
    let d = 0;
    while (i < end && (d = b[i]! - 48) >= 0 && d <= 9) {
      value = value * 10 + d;
      i++;
    }
    if (i === start) return -1;
    into[at] = i - start > 15 ? Number(b.toString('latin1', start, i)) : value;
    return i;
  }

  private viewOf(b: Buffer): DataView {
    this.buffer = b;
    return (this.view = new DataView(b.buffer, b.byteOffset, b.byteLength));
  }

  /** See scanTraceGcLine. */
  scan(b: Buffer, start: number, end: number, table: GcEventTable): boolean {
    let i = start;
    if (i >= end || b[i] !== 0x5b /* [ */) return false;
    i++;
    // The numbers go straight into the row at `table.length`, added only if the whole line is read.
    const cols = table.slot();
    const r = table.slotRow;
    const scratch = this.scratch;
    const view = b === this.buffer ? this.view : this.viewOf(b);

    // [pid:isolate(:N)?]
    const id = table.id;
    const prefix = this.prefix;
    let isolate = -1;
    let isolateStart = 0;
    let isolateEnd = 0;
    let e = 0;
    if (prefix.matches(b, view, start, end, id)) {
      isolate = prefix.index1;
      i = start + prefix.length;
    } else {
      e = this.integer(b, i, end, scratch, PID);
      if (e < 0 || e - i > 10) return false;
      i = e;
      if (i >= end || b[i] !== 0x3a /* : */) return false;
      i++;
      isolateStart = i;
      if (i + 1 < end && b[i] === 0x30 && b[i + 1] === 0x78 /* 0x */) {
        i += 2;
        const digits = i;
        while (i < end && isHex(b[i]!)) i++;
        if (i === digits) return false;
      } else {
        while (i < end && isUpperHex(b[i]!)) i++;
        if (i - isolateStart !== 8 && i - isolateStart !== 16) return false;
      }
      isolateEnd = i;
      if (i < end && b[i] === 0x3a /* : */) {
        i = this.integer(b, i + 1, end, scratch, OTHER);
        if (i < 0) return false;
      }
      if (i >= end || b[i] !== 0x5d /* ] */) return false;
      i++;
    }
    const prefixEnd = i;

    // " *N ms: "
    while (i < end && b[i] === 0x20) i++;
    e = this.decimal(b, i, end, cols.timeMs, r);
    if (e < 0 || !follows(b, e, end, this.msColon)) return false;
    i = e + this.msColon.length;

    // TYPE: up to the last space before the first character that cannot be part of it.
    const typeStart = i;
    let typeEnd = 0;
    let qualifierEnd = 0;
    const type = this.type;
    const sameType = type.matches(b, view, i, end, id) && i + type.length < end && isDigit(b[i + type.length]!);
    if (sameType) {
      // The same bytes before the same kind of character (the heap size's first digit) end the type
      // where they did.
      i += type.length - 1;
    } else {
      if (i >= end || !(b[i]! >= 65 && b[i]! <= 90)) return false;
      i++;
      while (i < end && isTypeChar(b[i]!)) i++;
      typeEnd = i - 1;
      if (typeEnd <= typeStart || b[typeEnd] !== 0x20) return false;

      // Qualifiers: " (a)" any number of times, then " " and the first heap size.
      i = typeEnd;
      while (i + 1 < end && b[i] === 0x20 && b[i + 1] === 0x28) {
        i += 2;
        if (i >= end || !isLetter(b[i]!)) return false;
        i++;
        while (i < end && isQualifierChar(b[i]!)) i++;
        if (i >= end || b[i] !== 0x29) return false;
        i++;
      }
      qualifierEnd = i;
      if (i >= end || b[i] !== 0x20) return false;
    }

    // "A (B) -> C (D) MB, [pooled: N MB, ]X / Y ms *"
    i = this.decimal(b, i + 1, end, cols.heapBeforeMB, r);
    if (i < 0 || i + 1 >= end || b[i] !== 0x20 || b[i + 1] !== 0x28) return false;
    e = this.decimal(b, i + 2, end, cols.committedBeforeMB, r);
    if (e < 0 || !follows(b, e, end, this.arrow)) return false;
    i = this.decimal(b, e + this.arrow.length, end, cols.heapAfterMB, r);
    if (i < 0 || i + 1 >= end || b[i] !== 0x20 || b[i + 1] !== 0x28) return false;
    e = this.decimal(b, i + 2, end, cols.committedAfterMB, r);
    if (e < 0 || !follows(b, e, end, this.mbComma)) return false;
    i = e + this.mbComma.length;
    if (follows(b, i, end, this.pooled)) {
      e = this.decimal(b, i + this.pooled.length, end, cols.pooledMB, r);
      if (e < 0 || !follows(b, e, end, this.mbComma2)) return false;
      i = e + this.mbComma2.length;
    } else cols.pooledMB[r] = NaN;
    e = this.decimal(b, i, end, cols.pauseMs, r);
    if (e < 0 || !follows(b, e, end, this.slash)) return false;
    e = this.decimal(b, e + this.slash.length, end, cols.externalMs, r);
    if (e < 0 || !ms(b, e, end)) return false;
    i = e + 3;
    while (i < end && b[i] === 0x20) i++;

    // Incremental marking (Mark-Compact only).
    let marking = false;
    let wall = false;
    if (i + 1 < end && b[i] === 0x28 && b[i + 1] === 0x2b /* + */) {
      if (i + 2 >= end || b[i + 2] !== 0x20) return false;
      e = this.decimal(b, i + 3, end, scratch, MARKING_MS);
      if (e < 0 || !follows(b, e, end, this.markingIn)) return false;
      e = this.integer(b, e + this.markingIn.length, end, scratch, MARKING_STEPS);
      if (e < 0 || !follows(b, e, end, this.markingSteps)) return false;
      e = this.decimal(b, e + this.markingSteps.length, end, scratch, MARKING_BIGGEST);
      if (e < 0 || !ms(b, e, end)) return false;
      i = e + 3;
      if (follows(b, i, end, this.markingWall)) {
        e = this.decimal(b, i + this.markingWall.length, end, scratch, MARKING_WALL);
        if (e < 0 || !ms(b, e, end)) return false;
        i = e + 3;
        wall = true;
      }
      if (i >= end || b[i] !== 0x29) return false;
      i++;
      while (i < end && b[i] === 0x20) i++;
      marking = true;
    }

    // Mutator utilisation: printed by every Node since 2017, and requiring it rejects most lines cut
    // short; then reason[; collectorReason], then at most a '\r' before the end.
    const tailStart = i;
    const tail = this.tail;
    const sameTail = tail.matches(b, view, i, end, id) && i + tail.length === end;
    let reasonStart = 0;
    let reasonEnd = 0;
    let collectorStart = 0;
    let collectorEnd = 0;
    if (!sameTail) {
      if (!follows(b, i, end, this.muAverage)) return false;
      e = this.decimal(b, i + this.muAverage.length, end, scratch, MU_AVERAGE);
      if (e < 0 || !follows(b, e, end, this.muCurrent)) return false;
      i = this.decimal(b, e + this.muCurrent.length, end, scratch, MU_CURRENT);
      if (i < 0 || i >= end || b[i] !== 0x29) return false;
      i++;
      while (i < end && b[i] === 0x20) i++;
      reasonStart = i;
      let c = 0;
      while (i < end && (c = b[i]!) !== 0x3b && c !== 0x0d) i++;
      reasonEnd = i;
      collectorStart = i;
      collectorEnd = i;
      if (i < end && c === 0x3b) {
        i++;
        while (i < end && b[i] === 0x20) i++;
        collectorStart = i;
        while (i < end && b[i] !== 0x0d) i++;
        collectorEnd = i;
      }
      if (i < end && !(i + 1 === end && b[i] === 0x0d)) return false;
    }

    // The line is whole: the rest of its row, the strings looked up only now (a line that does not
    // parse adds none), and its parts remembered.
    if (isolate < 0) {
      isolate = table.isolateIndexOfBytes(scratch[PID]!, b, isolateStart, isolateEnd);
      prefix.remember(b, view, start, prefixEnd, id);
      prefix.index1 = isolate;
    }
    cols.isolate[r] = isolate;
    if (sameType) {
      cols.type[r] = type.index1;
      cols.qualifiers[r] = type.index2;
      cols.flags[r] = type.index3;
    } else {
      const t = table.types.ofBytes(b, typeStart, typeEnd);
      const q = qualifierEnd === typeEnd ? 0 : table.qualifierTexts.ofBytes(b, typeEnd, qualifierEnd);
      const flags = q === 0 ? 0 : table.qualifierFlagsOf(q);
      cols.type[r] = t;
      cols.qualifiers[r] = q;
      cols.flags[r] = flags;
      type.remember(b, view, typeStart, qualifierEnd + 1, id);
      type.index1 = t;
      type.index2 = q;
      type.index3 = flags;
    }
    cols.marking[r] = marking ? table.markingEntry(scratch[MARKING_MS]!, scratch[MARKING_STEPS]!, scratch[MARKING_BIGGEST]!, wall ? scratch[MARKING_WALL]! : NaN) : table.markingEntry(NaN, 0, 0, NaN);
    if (sameTail) {
      cols.mu[r] = table.muEntry(tail.value1, tail.value2);
      cols.reason[r] = tail.index1;
      cols.collectorReason[r] = tail.index2;
    } else {
      const muAverage = scratch[MU_AVERAGE]!;
      const muCurrent = scratch[MU_CURRENT]!;
      const reason = table.reasons.ofBytes(b, reasonStart, reasonEnd);
      const collector = collectorEnd === collectorStart ? 0 : table.reasons.ofBytes(b, collectorStart, collectorEnd);
      cols.mu[r] = table.muEntry(muAverage, muCurrent);
      cols.reason[r] = reason;
      cols.collectorReason[r] = collector;
      tail.remember(b, view, tailStart, end, id);
      tail.value1 = muAverage;
      tail.value2 = muCurrent;
      tail.index1 = reason;
      tail.index2 = collector;
    }
    return true;
  }
}

// Places in TraceGcScanner's scratch.
const PID = 0;
const OTHER = 1;
const MARKING_MS = 2;
const MARKING_STEPS = 3;
const MARKING_BIGGEST = 4;
const MARKING_WALL = 5;
const MU_AVERAGE = 6;
const MU_CURRENT = 7;

/** Whether `b[i, end)` continues with `literal`. */
function follows(b: Buffer, i: number, end: number, literal: Uint8Array): boolean {
  const n = literal.length;
  if (i + n > end) return false;
  for (let k = 0; k < n; k++) if (b[i + k] !== literal[k]) return false;
  return true;
}

/** Whether `b[i, end)` continues with " ms". */
function ms(b: Buffer, i: number, end: number): boolean {
  return i + 2 < end && b[i] === 0x20 && b[i + 1] === 0x6d && b[i + 2] === 0x73;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
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
  return isLetter(c) || c === 0x20 || c === 45;
}

/** `[\w -]`: what a qualifier is made of. */
function isQualifierChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === 0x20 || c === 45;
}

const scanner = new TraceGcScanner();

/**
 * Reads `b[start, end)` (one line without its newline; a trailing '\r' is allowed) into the row at
 * `table.length`, which `table.commit()` then adds. Returns false, leaving the table as it was, when
 * it is not a --trace-gc line.
 */
export function scanTraceGcLine(b: Buffer, start: number, end: number, table: GcEventTable): boolean {
  return scanner.scan(b, start, end, table);
}

/** A line's bytes for the scanner: one buffer reused, grown for a longer line. */
let lineBytes = Buffer.allocUnsafe(4096);

/** The UTF-8 bytes of `line` in a shared buffer (valid until the next call); their length. */
export function encodeLine(line: string): { bytes: Buffer; length: number } {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  if (3 * line.length > lineBytes.length) lineBytes = Buffer.allocUnsafe(Math.max(3 * line.length, 2 * lineBytes.length));
  return { bytes: lineBytes, length: lineBytes.write(line, 0, 'utf8') };
}

/** The table parseTraceGcLine's lines go through; started afresh now and then, so that it stays small. */
let scratch = new GcEventTable(256);

export function parseTraceGcLine(line: string): GcEvent | null {
  if (line.charCodeAt(0) !== 0x5b /* [ */) return null;
  const { bytes, length } = encodeLine(line);
  if (scratch.length === 256) scratch = new GcEventTable(256);
  if (!scanTraceGcLine(bytes, 0, length, scratch)) return null;
  // Events in a row share their mutator utilisation object, as the collector's do.
  return scratch.event(scratch.commit());
}
