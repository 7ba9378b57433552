import type { GcEvent, IncrementalMarking } from './gcEvent';
import { ISOLATE_PREFIX_SOURCE } from './isolatePrefix';
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
 * One regular expression, because traces reach millions of lines: V8 runs it as native code,
 * several times faster than reading the fields with charCodeAt in JavaScript. Captured numbers
 * are converted by `decimal` (Number() on a string is the slow, general path).
 */

const N = String.raw`(\d+(?:\.\d*)?)`;
const TRACE_GC_LINE = new RegExp(
  // [1] pid, [2] isolate (see isolatePrefix.ts), [3] ms since the isolate started
  ISOLATE_PREFIX_SOURCE + String.raw` *${N} ms: ` +
    // [4] type: the known ones first (fast), then any capitalised words, for future types
    String.raw`(Scavenge|Mark-Compact|Minor Mark-Sweep|Incremental Mark-Compact|Minor Mark-Compact|Mark-sweep|[A-Z][A-Za-z -]*?)` +
    // [5] qualifiers, any number: " (interleaved) (reduce)" (Node 22), " (during sweeping)" (Node 26)
    String.raw`((?: \([A-Za-z][\w -]*\))*) ` +
    // [6]–[9] heap and committed MB before -> after, [10] pooled (Node 22+), [11] pause, [12] external
    String.raw`${N} \(${N}\) -> ${N} \(${N}\) MB, (?:pooled: ${N} MB, )?${N} \/ ${N} ms *` +
    // [13]–[16] incremental marking (Mark-Compact only)
    String.raw`(?:\(\+ ${N} ms in (\d+) steps since start of marking, biggest step ${N} ms(?:, walltime since start of marking ${N} ms)?\) *)?` +
    // [17], [18] mutator utilisation: printed by every Node since 2017, and requiring it rejects
    // most lines cut short
    String.raw`\(average mu = ${N}, current mu = ${N}\) *` +
    // [19] reason; [20] collector reason (often empty: "allocation failure; "). Greedy, so the
    // engine does not retry the rest of the pattern at every character; trailing spaces are
    // trimmed below.
    String.raw`([^;\r]*)(?:; *([^\r]*))?\r?$`,
);

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** A number the regex captured (digits, optional "." and digits). */
function decimal(s: string): number {
  if (s.length > 15) return Number(s); // beyond exact integers: let V8 round
  let value = 0;
  let decimals = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */) decimals = 0;
    else {
      value = value * 10 + (c - 48);
      if (decimals >= 0) decimals++;
    }
  }
  // An integer below 2^53 divided by an exact power of ten is correctly rounded: the same double
  // as Number("136.9").
  return decimals > 0 ? value / POW10[decimals]! : value;
}

/** Trailing spaces are rare ("allocation failure " in old output); trimEnd would copy every time. */
function trimEnd(s: string): string {
  return s.length > 0 && s.charCodeAt(s.length - 1) === 32 ? s.trimEnd() : s;
}

/** The known types as constants, without a table lookup; others are interned. */
function typeName(s: string): string {
  switch (s) {
    case 'Scavenge':
      return 'Scavenge';
    case 'Mark-Compact':
      return 'Mark-Compact';
    case 'Minor Mark-Sweep':
      return 'Minor Mark-Sweep';
    case 'Minor Mark-Compact':
      return 'Minor Mark-Compact';
    case 'Mark-sweep':
      return 'Mark-sweep';
    case 'Incremental Mark-Compact':
      return 'Incremental Mark-Compact';
    default:
      return types.intern(s);
  }
}

/** The qualifiers of a " (a) (b)" group, one shared array per distinct text (there are a handful). */
const qualifierLists = new Map<string, readonly string[]>();
function qualifiersOf(text: string): readonly string[] {
  let list = qualifierLists.get(text);
  if (list === undefined) {
    list = Object.freeze(text.slice(2, -1).split(') ('));
    // Bounded: V8 prints a few kinds; anything past that is not worth remembering.
    if (qualifierLists.size < 64) qualifierLists.set(text, list);
  }
  return list;
}

const isolates = new StringInterner(64);
const types = new StringInterner(64);
const reasons = new StringInterner();
// Mutator utilisation changes only at Mark-Compacts, so consecutive events share one object
// (and its two numbers are converted only when their text changes).
let lastMu: { average: number; current: number } = { average: NaN, current: NaN };
let lastMuText = '';
let lastMuCurrentText = '';

export function parseTraceGcLine(line: string): GcEvent | null {
  const m = TRACE_GC_LINE.exec(line);
  if (m === null) return null;
  const suffixes = m[5]!;
  const marking = m[13];
  const incrementalMarking: IncrementalMarking | null =
    marking === undefined
      ? null
      : { ms: decimal(marking), steps: decimal(m[14]!), biggestStepMs: decimal(m[15]!), wallMs: m[16] === undefined ? null : decimal(m[16]) };
  const averageText = m[17]!;
  const currentText = m[18]!;
  if (averageText !== lastMuText || currentText !== lastMuCurrentText) {
    lastMu = { average: decimal(averageText), current: decimal(currentText) };
    lastMuText = averageText;
    lastMuCurrentText = currentText;
  }
  const collectorReason = m[20];
  const pooled = m[10];
  return {
    pid: decimal(m[1]!),
    isolate: isolates.intern(m[2]!),
    timeMs: decimal(m[3]!),
    type: typeName(m[4]!),
    interleaved: suffixes.length > 0 && suffixes.includes('(interleaved)'),
    reduce: suffixes.length > 0 && suffixes.includes('(reduce)'),
    ...(suffixes.length > 0 ? { qualifiers: qualifiersOf(suffixes) } : {}),
    heapBeforeMB: decimal(m[6]!),
    committedBeforeMB: decimal(m[7]!),
    heapAfterMB: decimal(m[8]!),
    committedAfterMB: decimal(m[9]!),
    pooledMB: pooled === undefined ? null : decimal(pooled),
    pauseMs: decimal(m[11]!),
    externalMs: decimal(m[12]!),
    incrementalMarking,
    mu: lastMu,
    reason: reasons.intern(trimEnd(m[19]!)),
    collectorReason: collectorReason === undefined || collectorReason.length === 0 ? '' : reasons.intern(trimEnd(collectorReason)),
    source: 'trace-gc',
  };
}
