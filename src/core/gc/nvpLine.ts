import type { GcEvent, IncrementalMarking } from './gcEvent';
import { readIsolatePrefix } from './isolatePrefix';
import { LineScanner } from './lineScanner';
import { CharCode } from '../util/charCodes';
const { PERCENT, SPACE, EQUALS } = CharCode;

/*
 * `--trace-gc-nvp` lines, in two forms (gc.md §2.3):
 *   Node 18–24: `[pid:isolate(:N)?]  %8.0f ms: pause=1.3 mutator=… gc=s …`, one name=value pair per
 *     space-separated token;
 *   Node 26 (V8 14.6): `[pid:isolate:N]  %8.0f ms: GC: {"pause":1.3,"mutator":…,"gc":"s",…}`, one JSON
 *     object, with booleans (`"reduce_memory":false`), the reason (`"reason":"allocation failure"`)
 *     and new flags (`"during_sweeping"`, `"is_incremental"`).
 * Both are read into the same `nvp` record, so `allocated`, `promoted`, `new_space_survived` and the
 * background phases read the same whatever the version (booleans as 1/0, as the old form printed
 * them). Key names drift between versions (Node 20 `total_size_before`, Node 24 `start_object_size`),
 * so every pair is kept.
 */

const BYTES_PER_MB = 1024 * 1024;

/** `gc=` codes. Node 18's "ms" is its full GC, which its --trace-gc prints as "Mark-sweep". */
const TYPE_BY_CODE = new Map([
  ['s', 'Scavenge'],
  ['mc', 'Mark-Compact'],
  ['mms', 'Minor Mark-Sweep'],
  ['mmc', 'Minor Mark-Compact'],
  ['ms', 'Mark-sweep'],
]);

/** What follows `ms: ` on each form. */
const KEY_VALUE_START = 'pause=';
const JSON_START = 'GC: {';

const scanner = new LineScanner();

export function parseNvpLine(line: string): GcEvent | null {
  const prefix = readIsolatePrefix(line);
  if (prefix === null) return null;
  const s = scanner;
  s.reset(line, prefix.end);
  s.skipSpaces();
  const timeMs = s.number();
  if (Number.isNaN(timeMs) || !s.literal(' ms: ')) return null;
  let nvp: Record<string, number | string> | null;
  if (s.text.startsWith(KEY_VALUE_START, s.pos)) nvp = readPairs(s);
  else if (s.text.startsWith(JSON_START, s.pos)) nvp = readJsonPairs(s.text.slice(s.pos + JSON_START.length - 1, s.end));
  else return null;
  if (nvp === null) return null;

  const pauseMs = nvp.pause;
  const code = nvp.gc;
  if (typeof pauseMs !== 'number' || typeof code !== 'string') return null;
  const base = TYPE_BY_CODE.get(code) ?? code;
  // Node 26's --trace-gc prints such a full GC "Incremental Mark-Compact": the same name here.
  const type = nvp.is_incremental === 1 && base === 'Mark-Compact' ? 'Incremental Mark-Compact' : base;
  const reason = nvp.reason;
  const collectorReason = nvp.collector_reason;
  const qualifiers = qualifiersOf(nvp);

  return {
    pid: prefix.pid,
    isolate: prefix.isolate,
    timeMs,
    type,
    interleaved: nvp.interleaved === 1,
    reduce: nvp.reduce_memory === 1,
    ...(qualifiers.length > 0 ? { qualifiers } : {}),
    heapBeforeMB: megabytes(nvp.total_size_before ?? nvp.start_object_size),
    committedBeforeMB: megabytes(nvp.start_memory_size),
    heapAfterMB: megabytes(nvp.total_size_after ?? nvp.end_object_size),
    committedAfterMB: megabytes(nvp.end_memory_size),
    pooledMB: null, // NVP counts pooled pages (pool_chunks / pool_total_chunks), not MB
    pauseMs,
    externalMs: numberOr0(nvp['heap.external.prologue']) + numberOr0(nvp['heap.external.epilogue']),
    incrementalMarking: incrementalMarkingOf(nvp),
    mu: null,
    // The key=value form has no reason; the JSON form (Node 26) does.
    reason: typeof reason === 'string' ? reason : '',
    collectorReason: typeof collectorReason === 'string' ? collectorReason : '',
    source: 'nvp',
    nvp,
  };
}

/** The qualifiers --trace-gc would print for the same GC, from the flags NVP has. */
function qualifiersOf(nvp: Record<string, number | string>): string[] {
  const list: string[] = [];
  if (nvp.interleaved === 1) list.push('interleaved');
  if (nvp.during_sweeping === 1) list.push('during sweeping');
  if (nvp.reduce_memory === 1) list.push('reduce');
  return list;
}

/**
 * The JSON form's object as name → number | string (booleans 1/0; nested values, which V8 does not
 * print, are left out); null when it is not a JSON object. V8's emitter writes doubles with printf,
 * so a non-finite one would come out as a bare `inf` or `nan`: those read as absent rather than
 * losing the line.
 */
function readJsonPairs(text: string): Record<string, number | string> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    try {
      parsed = JSON.parse(text.replace(/:\s*-?(?:nan|inf(?:inity)?)\b/gi, ':null'));
    } catch {
      return null;
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const pairs: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (key === '__proto__') continue; // would set the prototype, not a pair
    if (typeof value === 'number' || typeof value === 'string') pairs[key] = value;
    else if (typeof value === 'boolean') pairs[key] = value ? 1 : 0;
  }
  return pairs;
}

function readPairs(s: LineScanner): Record<string, number | string> {
  const pairs: Record<string, number | string> = {};
  const text = s.text;
  while (s.pos < s.end) {
    s.skipSpaces();
    let tokenEnd = text.indexOf(' ', s.pos);
    if (tokenEnd < 0 || tokenEnd > s.end) tokenEnd = s.end;
    // A token may hold two pairs: Node 24 prints "clear.join_filter_job=0.0clear.join_job=0.0"
    // (a missing space in V8's format string), so a number directly followed by a name starts a new pair.
    while (s.pos < tokenEnd) {
      const equals = text.indexOf('=', s.pos);
      if (equals < 0 || equals >= tokenEnd) {
        s.pos = tokenEnd; // a stray word: not a pair
        break;
      }
      const key = text.slice(s.pos, equals);
      s.pos = equals + 1;
      if (key === '__proto__') continue; // would set the prototype, not a pair
      const value = s.number();
      if (!Number.isNaN(value)) {
        if (s.pos === tokenEnd) {
          pairs[key] = value;
          break;
        }
        const next = text.charCodeAt(s.pos);
        if (next === PERCENT && s.pos + 1 === tokenEnd) {
          pairs[key] = value;
          s.pos = tokenEnd;
          break;
        }
        if (next !== EQUALS && next !== SPACE && text.indexOf('=', s.pos) < tokenEnd && isNameStart(next)) {
          pairs[key] = value;
          continue;
        }
      }
      pairs[key] = text.slice(equals + 1, tokenEnd);
      s.pos = tokenEnd;
    }
  }
  return pairs;
}

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function megabytes(bytes: number | string | undefined): number {
  return typeof bytes === 'number' ? bytes / BYTES_PER_MB : NaN;
}

function numberOr0(value: number | string | undefined): number {
  return typeof value === 'number' ? value : 0;
}

/** Mark-compacts report their incremental marking as `incremental=` (ms) and friends. */
function incrementalMarkingOf(nvp: Record<string, number | string>): IncrementalMarking | null {
  const ms = numberOr0(nvp.incremental);
  const steps = numberOr0(nvp.incremental_steps_count);
  const wall = nvp.incremental_walltime_duration;
  if (ms === 0 && steps === 0 && !(typeof wall === 'number' && wall > 0)) return null;
  return {
    ms,
    steps,
    biggestStepMs: numberOr0(nvp.incremental_longest_step),
    wallMs: typeof wall === 'number' ? wall : null,
  };
}
