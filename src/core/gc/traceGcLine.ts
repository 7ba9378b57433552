import type { GcEvent, IncrementalMarking } from './gcEvent';
import { readIsolatePrefix, type IsolatePrefix } from './isolatePrefix';
import { LineScanner } from './lineScanner';
import { StringInterner } from './stringInterner';

/*
 * `--trace-gc` lines, Node 18–24 (format strings from the binaries, see gc.md §2):
 *   [pid:isolate] %8.0f ms: TYPE[ (interleaved)][ (reduce)] A (B) -> C (D) MB, [pooled: N MB, ]X / Y ms
 *     [(+ A ms in N steps since start of marking, biggest step B ms, walltime since start of marking W ms) ]
 *     (average mu = M, current mu = C) reason; collectorReason
 * Node 18 prints "Mark-sweep" for the full GC and one decimal for the pause ("9.5 / 0.0 ms").
 * Parsed in place (see LineScanner); any deviation from the shape returns null, never throws.
 */

const KNOWN_TYPES = ['Scavenge', 'Mark-Compact', 'Minor Mark-Sweep', 'Minor Mark-Compact', 'Mark-sweep'];

const scanner = new LineScanner();
const prefix: IsolatePrefix = { pid: 0, isolate: '', end: 0 };
const strings = new StringInterner();

export function parseTraceGcLine(line: string): GcEvent | null {
  if (!readIsolatePrefix(line, prefix)) return null;
  const s = scanner;
  s.reset(line, prefix.end);
  s.skipSpaces();
  const timeMs = s.number();
  if (!s.literal(' ms: ')) return null;

  const type = readType(s);
  if (type === null) return null;
  let interleaved = false;
  let reduce = false;
  // Suffixes: v22 can print both " (interleaved)" and " (reduce)".
  for (;;) {
    if (s.literal(' (interleaved)')) interleaved = true;
    else if (s.literal(' (reduce)')) reduce = true;
    else break;
  }

  if (!s.literal(' ')) return null;
  const heapBeforeMB = s.number();
  if (!s.literal(' (')) return null;
  const committedBeforeMB = s.number();
  if (!s.literal(') -> ')) return null;
  const heapAfterMB = s.number();
  if (!s.literal(' (')) return null;
  const committedAfterMB = s.number();
  if (!s.literal(') MB, ')) return null;

  let pooledMB: number | null = null;
  if (s.literal('pooled: ')) {
    pooledMB = s.number();
    if (!s.literal(' MB, ')) return null;
  }

  const pauseMs = s.number();
  if (!s.literal(' / ')) return null;
  const externalMs = s.number();
  if (!s.literal(' ms')) return null;
  // A missing number leaves NaN (the literals around it may still match): one sum checks them all.
  const checksum = timeMs + heapBeforeMB + committedBeforeMB + heapAfterMB + committedAfterMB + pauseMs + externalMs;
  if (Number.isNaN(checksum) || (pooledMB !== null && Number.isNaN(pooledMB))) return null;
  s.skipSpaces();

  let incrementalMarking: IncrementalMarking | null = null;
  if (s.literal('(+ ')) {
    incrementalMarking = readIncrementalMarking(s);
    if (incrementalMarking === null) return null;
    s.skipSpaces();
  }

  let mu: GcEvent['mu'] = null;
  if (s.literal('(average mu = ')) {
    const average = s.number();
    if (!s.literal(', current mu = ')) return null;
    const current = s.number();
    if (!s.literal(')') || Number.isNaN(average + current)) return null;
    mu = { average, current };
    s.skipSpaces();
  }

  // "reason; collectorReason", where the collector reason is often empty ("allocation failure; ").
  let reason: string;
  let collectorReason = '';
  const semicolon = s.indexOf(';');
  if (semicolon < 0) {
    reason = internTrimmed(s, s.end);
  } else {
    reason = internTrimmed(s, semicolon);
    s.pos = semicolon + 1;
    s.skipSpaces();
    collectorReason = internTrimmed(s, s.end);
  }

  return {
    pid: prefix.pid,
    isolate: prefix.isolate,
    timeMs,
    type,
    interleaved,
    reduce,
    heapBeforeMB,
    committedBeforeMB,
    heapAfterMB,
    committedAfterMB,
    pooledMB,
    pauseMs,
    externalMs,
    incrementalMarking,
    mu,
    reason,
    collectorReason,
    source: 'trace-gc',
  };
}

/** The GC type: a known one without allocating, else the words up to the sizes or a " (" suffix. */
function readType(s: LineScanner): string | null {
  for (const known of KNOWN_TYPES) {
    if (s.text.startsWith(known, s.pos)) {
      const next = s.text.charCodeAt(s.pos + known.length);
      if (next === 32 /* space */) {
        s.pos += known.length;
        return known;
      }
    }
  }
  // An unknown (future) type: must start with a capital letter, like every V8 type so far; that
  // keeps "[HeapController] …" and NVP's "pause=…" out.
  const first = s.peek();
  if (first < 65 || first > 90) return null;
  const start = s.pos;
  let i = start;
  const text = s.text;
  while (i < s.end) {
    if (text.charCodeAt(i) === 32) {
      const next = text.charCodeAt(i + 1);
      if ((next >= 48 && next <= 57) || next === 40 /* ( */) break;
    }
    i++;
  }
  if (i >= s.end) return null;
  s.pos = i;
  return strings.intern(text, start, i);
}

/** After "(+ ": "A ms in N steps since start of marking, biggest step B ms[, walltime since start of marking W ms])". */
function readIncrementalMarking(s: LineScanner): IncrementalMarking | null {
  const ms = s.number();
  if (!s.literal(' ms in ')) return null;
  const steps = s.number();
  if (!s.literal(' steps since start of marking, biggest step ')) return null;
  const biggestStepMs = s.number();
  if (!s.literal(' ms')) return null;
  let wallMs: number | null = null;
  if (s.literal(', walltime since start of marking ')) {
    wallMs = s.number();
    if (!s.literal(' ms')) return null;
  }
  if (!s.literal(')')) return null;
  if (Number.isNaN(ms + steps + biggestStepMs) || (wallMs !== null && Number.isNaN(wallMs))) return null;
  return { ms, steps, biggestStepMs, wallMs };
}

function internTrimmed(s: LineScanner, to: number): string {
  let stop = to;
  while (stop > s.pos && s.text.charCodeAt(stop - 1) === 32) stop--;
  return strings.intern(s.text, s.pos, stop);
}
