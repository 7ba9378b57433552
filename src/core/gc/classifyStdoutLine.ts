import type { GcEvent } from './gcEvent';
import { isolatePrefixEnd } from './isolatePrefix';
import { parseNvpLine } from './nvpLine';
import { parseTraceGcLine } from './traceGcLine';

/**
 * What a line of the traced process's stdout is. Only `app` lines are passed through to the user,
 * so a line is V8's only when it starts with V8's `[pid:isolate]` prefix (see isolatePrefix.ts).
 */
export type StdoutLineClass =
  | { kind: 'gc'; event: GcEvent }
  /**
   * V8 output that is not a GC event: `--trace-gc-verbose` blocks, `[HeapController]` lines,
   * "Shrinking page …", the memory pool's message. `looksLikeGcEvent` is true for a timed line
   * (`[pid:isolate]  N ms: …`) that did not parse and is none of V8's known other timed messages:
   * by its shape a GC event in a form we do not know, counted as unparsed (the run's self-check
   * holds the events read against these).
   */
  | { kind: 'v8'; looksLikeGcEvent: boolean }
  | { kind: 'app' };

// Shared results: classifying must not allocate for the (many) lines that are not GC events.
const APP: StdoutLineClass = Object.freeze({ kind: 'app' });
const V8_OTHER: StdoutLineClass = Object.freeze({ kind: 'v8', looksLikeGcEvent: false });
const V8_UNPARSED: StdoutLineClass = Object.freeze({ kind: 'v8', looksLikeGcEvent: true });

/**
 * Timed V8 lines that are not GC events: "[HeapController] …", "[GlobalMemoryController] …" (any
 * bracketed tag, with --trace-gc-verbose) and Node 26's "Memory pool: Removed pages: …".
 */
function isOtherTimedMessage(line: string, body: number): boolean {
  return line.charCodeAt(body) === 91 /* [ */ || line.startsWith('Memory pool: ', body);
}

export function classifyStdoutLine(line: string): StdoutLineClass {
  if (line.charCodeAt(0) !== 91 /* [ */) return APP;
  // Most V8 lines in a trace are --trace-gc events: try that first; it rejects app lines such as
  // "[INFO] …" within a few characters.
  const event = parseTraceGcLine(line);
  if (event !== null) return { kind: 'gc', event };
  return classifyOtherLine(line);
}

/** The same for a line known not to be a --trace-gc event (the collector has just scanned it). */
export function classifyOtherLine(line: string): StdoutLineClass {
  const prefixEnd = isolatePrefixEnd(line);
  if (prefixEnd < 0) return APP;
  // "   1234 ms: " follows the prefix on GC lines (and on heap-controller lines).
  let i = prefixEnd;
  while (line.charCodeAt(i) === 32) i++;
  const digitsStart = i;
  for (let c = line.charCodeAt(i); (c >= 48 && c <= 57) || c === 46; c = line.charCodeAt(++i));
  if (i === digitsStart || !line.startsWith(' ms: ', i)) return V8_OTHER;
  const body = i + 5;

  // --trace-gc-nvp: "pause=…" pairs (Node 18–24) or "GC: {…}" JSON (Node 26).
  if (line.startsWith('pause=', body) || line.startsWith('GC: ', body)) {
    const nvpEvent = parseNvpLine(line);
    return nvpEvent === null ? V8_UNPARSED : { kind: 'gc', event: nvpEvent };
  }
  return isOtherTimedMessage(line, body) ? V8_OTHER : V8_UNPARSED;
}
