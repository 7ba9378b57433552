/**
 * Reads V8 logs (`--log-deopt --log-code`) into functions and deopts. `V8LogReader` takes one
 * isolate's lines; `readV8LogFiles` streams files (they can be 100 MB+) through one reader each and
 * merges them. With worker threads V8 writes one file per isolate
 * (`isolate-<addr>-<pid>-<logfile name>`); code addresses and timestamps only make sense within one.
 * Nothing here throws on log content: unknown events are counted, bad lines counted and skipped.
 */
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readline } from '../util/lazyBuiltins';
import { CodeMap } from './codeMap';
import { isOptimizedTier, sortTiers } from './codeState';
import { FunctionIndex, functionKey, toFunctionRef } from './functionIndex';
import {
  parseCodeCreationEvent,
  parseCodeDeleteEvent,
  parseCodeDeoptEvent,
  parseCodeSourceInfoEvent,
  parseFunctionName,
  parseMoveEvent,
  parseVersionEvent,
} from './logEvents';
import { splitLogLine } from './logLine';
import { emptyCounters, mergeAnalyses } from './mergeAnalyses';
import type { FunctionRef, Tier, V8Deopt, V8Function, V8LogAnalysis } from './types';
import { endsWithNewline, openRegularFile } from '../util/files';

export class V8LogReader {
  private readonly isolate: string;
  private v8Version: string | null = null;
  private readonly codeMap = new CodeMap();
  private readonly functions = new Map<string, V8Function>();
  /**
   * SharedFunctionInfo address → function and the name field it was logged with. A function's
   * code is created several times (one per tier), so this spares parsing the name again; the name
   * is compared because V8 may reuse a freed SFI's address without logging it.
   */
  private readonly functionBySfi = new Map<string, { rawName: string; fn: V8Function }>();
  /** The last JS code created, which the next `code-source-info` normally describes. */
  private lastFunctionCode: { start: string; fn: V8Function } | null = null;
  /** `code-creation` type names, shared: there are a dozen, and a million code objects. */
  private readonly types = new Map<string, string>();
  private readonly deopts: V8Deopt[] = [];
  private readonly counters = emptyCounters();

  /** `isolate` labels the deopts (the log file name; "v8.log" by default). */
  constructor(options: { isolate?: string } = {}) {
    this.isolate = options.isolate ?? 'v8.log';
  }

  /** One complete line, without its newline. */
  addLine(line: string): void {
    this.counters.lines++;
    // Split only the events we read: `script-source` lines hold whole scripts.
    const comma = line.indexOf(',');
    const event = comma < 0 ? line : line.slice(0, comma);
    let ok = true;
    switch (event) {
      case 'code-creation':
        ok = this.onCodeCreation(splitLogLine(line));
        break;
      case 'code-deopt':
        this.counters.deoptEvents++;
        ok = this.onCodeDeopt(splitLogLine(line));
        break;
      case 'code-source-info':
        ok = this.onCodeSourceInfo(splitLogLine(line));
        break;
      case 'code-move': {
        const move = parseMoveEvent(splitLogLine(line));
        if (move !== null) this.codeMap.move(move.from, move.to);
        ok = move !== null;
        break;
      }
      case 'sfi-move': {
        const move = parseMoveEvent(splitLogLine(line));
        if (move !== null) this.moveSfi(move.from, move.to);
        ok = move !== null;
        break;
      }
      case 'code-delete': {
        const start = parseCodeDeleteEvent(splitLogLine(line));
        if (start !== null) this.codeMap.delete(start);
        ok = start !== null;
        break;
      }
      case 'v8-version':
        this.v8Version = parseVersionEvent(splitLogLine(line)) ?? this.v8Version;
        break;
      default:
        ok = /^[A-Za-z][\w-]*$/.test(event);
        if (ok) this.counters.ignoredEvents[event] = (this.counters.ignoredEvents[event] ?? 0) + 1;
    }
    if (!ok) this.counters.malformedLines++;
  }

  /** A last line that had no newline: V8 was still writing it when the file was copied or cut. */
  noteTruncatedLine(): void {
    this.counters.lines++;
    this.counters.truncatedLines++;
  }

  finish(): V8LogAnalysis {
    const index = new FunctionIndex(this.functions.values());
    for (const deopt of this.deopts) deopt.function = innermostFunction(deopt, index);
    return {
      v8Version: this.v8Version,
      isolates: [{ name: this.isolate, v8Version: this.v8Version, deoptCount: this.deopts.length, counters: this.counters }],
      functions: [...this.functions.values()],
      deopts: this.deopts,
      counters: this.counters,
    };
  }

  private onCodeCreation(fields: string[]): boolean {
    const e = parseCodeCreationEvent(fields);
    if (e === null) return false;
    if (e.js === null) return true; // builtins, stubs, regexps: no JS function, never deopted
    const { state } = e.js;
    const fn = this.functionFor(e.js.sfi, e.js.rawName);
    if (fn !== null) {
      if (!fn.tiers.includes(state.tier)) fn.tiers = sortTiers([...fn.tiers, state.tier]);
      if (isOptimizedTier(state.tier)) fn.optimizations.push({ isolate: this.isolate, timeMs: e.timeUs / 1000, tier: state.tier });
      if (state.optimizationDisabled) fn.optimizationDisabled = true;
      this.lastFunctionCode = { start: e.start, fn };
    }
    // Only optimized code can deopt: keeping just that in the code map keeps a 100 MB log's
    // million bytecode and baseline objects out of memory.
    if (canDeopt(state.tier)) {
      let type = this.types.get(e.type);
      if (type === undefined) this.types.set(e.type, (type = e.type));
      this.codeMap.add({ start: e.start, size: e.size, type, fn, state });
    }
    return true;
  }

  /** A name that does not parse falls back to the function last seen with this SFI. */
  private functionFor(sfi: string, rawName: string): V8Function | null {
    const known = this.functionBySfi.get(sfi);
    if (known !== undefined && known.rawName === rawName) return known.fn;
    const ref = parseFunctionName(rawName);
    const fn = ref !== null ? this.upsertFunction(ref) : (known?.fn ?? null);
    if (fn !== null) this.functionBySfi.set(sfi, { rawName, fn });
    return fn;
  }

  private upsertFunction(ref: FunctionRef): V8Function {
    const key = functionKey(ref);
    let fn = this.functions.get(key);
    if (fn === undefined) {
      fn = { ...ref, tiers: [], optimizations: [], optimizationDisabled: false, sourceRange: null };
      this.functions.set(key, fn);
    }
    return fn;
  }

  private onCodeSourceInfo(fields: string[]): boolean {
    const e = parseCodeSourceInfoEvent(fields);
    if (e === null) return false;
    // V8 writes it right after the code-creation it describes.
    const fn = this.lastFunctionCode?.start === e.start ? this.lastFunctionCode.fn : this.codeMap.find(e.start)?.fn;
    if (fn != null) fn.sourceRange ??= { start: e.startOffset, end: e.endOffset };
    return true;
  }

  private moveSfi(from: string, to: string): void {
    const known = this.functionBySfi.get(from);
    if (known === undefined) return;
    this.functionBySfi.delete(from);
    this.functionBySfi.set(to, known);
  }

  private onCodeDeopt(fields: string[]): boolean {
    const e = parseCodeDeoptEvent(fields);
    if (e === null) return false;
    const code = this.codeMap.find(e.address);
    if (code?.fn == null) this.counters.unresolvedDeopts++;
    this.deopts.push({
      isolate: this.isolate,
      timeMs: e.timeUs / 1000,
      kind: e.kind,
      reason: e.reason,
      position: e.innermost,
      inlinedAt: e.inlinedAt,
      rawPosition: e.rawPosition,
      inliningId: e.inliningId,
      scriptOffset: e.scriptOffset,
      codeStart: e.codeStart,
      optimizedFunction: code?.fn != null ? toFunctionRef(code.fn) : null,
      tier: code?.state?.tier ?? null,
      marker: code?.state?.marker ?? null,
      function: null, // resolved in finish(), once every function is known
    });
    return true;
  }
}

function canDeopt(tier: Tier): boolean {
  return tier !== 'interpreted' && tier !== 'sparkplug'; // an unknown tier may be a new optimizing one
}

/** Not inlined: the optimized function itself. Inlined (or code not logged): look the position up. */
function innermostFunction(deopt: V8Deopt, index: FunctionIndex): FunctionRef | null {
  const notInlined = deopt.inliningId < 0 && deopt.inlinedAt.length === 0;
  if (notInlined && deopt.optimizedFunction !== null) return deopt.optimizedFunction;
  const p = deopt.position;
  return p === null ? null : index.functionAt(p.sourceUrl, p.line, p.column, deopt.scriptOffset);
}

// ------------------------------------------------------------------------------------------- Files

/** Reads and merges the given files. I/O errors (a missing file) reject; log content never does. */
export async function readV8LogFiles(paths: readonly string[]): Promise<V8LogAnalysis> {
  const analyses: V8LogAnalysis[] = [];
  for (const path of paths) analyses.push(await readV8LogFile(path));
  return mergeAnalyses(analyses);
}

/**
 * A log up to this size is read whole and split: a line at a time through readline costs a promise
 * per line (a script's 150 KB log took 10-15 ms, a tenth of profiling it); a bigger one streams.
 */
const WHOLE_LOG_BYTES = 8 * 2 ** 20;

export async function readV8LogFile(path: string): Promise<V8LogAnalysis> {
  // A regular file only: a FIFO or a device named like a log would block or never end.
  const handle = await openRegularFile(path);
  if ((await handle.stat()).size <= WHOLE_LOG_BYTES) {
    try {
      return analyzeV8LogText(await handle.readFile('utf8'), basename(path));
    } finally {
      await handle.close();
    }
  }
  const reader = new V8LogReader({ isolate: basename(path) });
  const complete = await endsWithNewline(path);
  const input = handle.createReadStream({ encoding: 'utf8', autoClose: false });
  // Hold each line back by one: only at the end do we know whether the last one was cut short.
  let pending: string | null = null;
  try {
    for await (const line of readline().createInterface({ input, crlfDelay: Infinity })) {
      if (pending !== null) reader.addLine(pending);
      pending = line;
    }
  } finally {
    input.destroy();
    await handle.close();
  }
  if (pending !== null) {
    if (complete) reader.addLine(pending);
    else reader.noteTruncatedLine();
  }
  return reader.finish();
}

/** The same rules for a log already in memory (tests, small logs). */
export function analyzeV8LogText(text: string, isolate = 'v8.log'): V8LogAnalysis {
  const reader = new V8LogReader({ isolate });
  const lines = text.split('\n');
  const last = lines.pop() ?? ''; // '' when the text ends with a newline
  for (const line of lines) reader.addLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  if (last !== '') reader.noteTruncatedLine();
  return reader.finish();
}


/**
 * The log files one run wrote into `dir` for `--logfile=<dir>/<logfileName>`: the per-isolate files
 * `isolate-<addr>-<pid>-<logfileName>`, and the plain file (`--no-logfile-per-isolate`).
 */
export async function findV8LogFiles(dir: string, logfileName = 'v8.log'): Promise<string[]> {
  const names = await readdir(dir);
  return names
    .filter((n) => n === logfileName || (n.startsWith('isolate-') && n.endsWith(`-${logfileName}`)))
    .sort()
    .map((n) => join(dir, n));
}
