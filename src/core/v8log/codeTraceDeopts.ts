/**
 * Deopts from V8's code-trace output (`--trace-deopt-verbose`, redirected to a file with
 * `--redirect-code-traces-to`), and the optimizations `--trace-opt` writes to the same file.
 *
 * Why this exists: while a CPU profiler runs (`--cpu-prof`, or the inspector's Profiler), V8 writes
 * no `code-deopt` events to the log at all, nor `code-creation` for JS code. Checked on Node 20, 22
 * and 24 with the same program: 4 `code-deopt` lines without `--cpu-prof`, 0 with it, while the
 * deopts still happen. The verbose trace still carries kind, reason, the function, the tier and the
 * `;;; deoptimize at <pos>( inlined at <pos>)*` chain; it has no timestamps, and functions only by
 * name and SharedFunctionInfo address. Bailouts and optimizations are written in the order they
 * happen, so that order stands in for time ("re-optimized after its last deopt").
 */
import { openRegularFile } from '../util/files';
import { basename } from 'node:path';
import { readline } from '../util/lazyBuiltins';
import { sortTiers } from './codeState';
import { FunctionIndex, functionKey, toFunctionRef } from './functionIndex';
import { parseDeoptPosition, urlToPath } from './sourcePosition';
import type { FunctionRef, LogPosition, Tier, V8Deopt, V8Function } from './types';

export interface TracedDeopt {
  kind: string;
  reason: string;
  /** The optimized function whose code was thrown away, as the trace names it (may be empty). */
  optimizedName: string;
  /** The function the deopt happened in: the last frame the deoptimizer read (innermost inlined). */
  innermostName: string | null;
  tier: Tier | null;
  position: LogPosition | null;
  inlinedAt: LogPosition[];
  rawPosition: string;
  /** SharedFunctionInfo address of the optimized function, as V8 wrote it: ties it to its optimizations. */
  sfi: string;
  /** Place among the trace's bailouts and optimizations, from 0: the trace has no times. */
  seq: number;
  /** Byte offset of its `[bailout` line in the file: compared with the file's size at known moments (a load window). */
  offset: number;
}

/** A finished Maglev/TurboFan compile (`--trace-opt`); "marking … for optimization" alone is not one. */
export interface TracedOptimization {
  /** As the trace names the function; empty for top-level code and anonymous functions. */
  name: string;
  /** SharedFunctionInfo address, as V8 wrote it. */
  sfi: string;
  /** From the target: MAGLEV → maglev, TURBOFAN / Node 24's TURBOFAN_JS → turbofan. */
  tier: Tier;
  /** On-stack-replacement code. Node 18 does not mark it on the line read here: always false there. */
  osr: boolean;
  seq: number;
  /** Byte offset of its line in the file: dated by the trace clock (see preload/agent.ts startTraceClock). */
  offset: number;
}

export interface CodeTrace {
  deopts: TracedDeopt[];
  optimizations: TracedOptimization[];
  /** What the trace holds by its raw shape, for the run's self-check (see `CodeTraceRawCounts`). */
  raw: CodeTraceRawCounts;
}

/**
 * Records counted by their opening text alone, beside those the reader understood: a gap is a
 * format this version does not read (a Node whose bailout line changed), never a quiet zero.
 */
export interface CodeTraceRawCounts {
  /** `[bailout (` records (glued after a `[marking dependent code` head too). */
  bailouts: number;
  /** Of those, the ones read as deopts. */
  bailoutsRead: number;
  /** Lines that open a finished optimization: `[completed compiling `, `[optimizing `, `[completed optimizing `. */
  optimizationLines: number;
  /** Of those, the ones read (an install line of a compile already counted is read, not a second optimization). */
  optimizationLinesRead: number;
}

// `0x… <JSFunction name (sfi = 0x…)>`; the name is empty for top-level code and anonymous functions,
// and may have dots or spaces (`host.fileExists`, `get x`).
const FUNCTION = String.raw`0x[0-9a-f]+ <JSFunction ?([^<(]*?)? ?(?:<[^>]*> )?\(sfi = (0x[0-9a-f]+)\)>`;
// Node 18 has no `<Code …>` part; Node 24 says MAGLEV / TURBOFAN_JS. The reason may contain `)`.
const BAILOUT = new RegExp(
  String.raw`^\[bailout \(kind: ([\w-]+), reason: (.*?)\): begin\. deoptimizing ${FUNCTION}, (?:0x[0-9a-f]+ <Code ([A-Z_]+)>, )?`,
);
/**
 * A finished optimization. The compile itself: `[completed compiling <fn> (target TURBOFAN) OSR - took …]`
 * (Node 20+, Maglev and TurboFan), `[optimizing <fn> (target TURBOFAN) - took …]` (Node 18). With
 * concurrent recompilation a TurboFan job then prints `[completed optimizing <fn> (target …)( OSR)?]`
 * when its code is installed: the same optimization, not another one.
 */
const OPTIMIZED = new RegExp(String.raw`^\[(completed compiling|optimizing|completed optimizing) ${FUNCTION} \(target ([A-Z_]+)\)( OSR)?( - took |\])`);
/**
 * V8 writes `[marking dependent code 0x… <Code …> (0x… <SharedFunctionInfo name>` to the code-trace
 * file and the rest of that line (`) (opt id 3) for deoptimization, …]`) to stdout, so the next
 * record in the file is glued to this head: `…<SharedFunctionInfo diag>[bailout (kind: …`.
 */
// The name can hold a `<…>` of its own (`IncomingMessage.<computed>`, a computed key).
const GLUED_HEAD = /^\[marking dependent code [^[]*?<SharedFunctionInfo(?:[^<>]|<[^<>]*>)*>(?=\[)/;
/** How every bailout record opens; `[bailout end` closes one and is not counted. */
const BAILOUT_OPENING = '[bailout (';
/** How a finished optimization's line opens (`[completed compiling`, `[optimizing`, `[completed optimizing`), whatever follows. */
const OPTIMIZATION_OPENING = /^\[(?:completed compiling|optimizing|completed optimizing) /;
const DEOPTIMIZE_AT = /^\s*;;; deoptimize at (<.*>)\s*$/;
const INPUT_FRAME = /^\s*reading input frame (.*?) => /;

export class CodeTraceDeoptReader {
  readonly deopts: TracedDeopt[] = [];
  readonly optimizations: TracedOptimization[] = [];
  readonly raw: CodeTraceRawCounts = { bailouts: 0, bailoutsRead: 0, optimizationLines: 0, optimizationLinesRead: 0 };
  private pending: TracedDeopt | null = null;
  private seq = 0;
  /** Byte offset of the line being read, when the caller tracks it. */
  private lineOffset = 0;
  /** Per SFI, its last compile while an install line for it may still follow. */
  private readonly awaitingInstall = new Map<string, TracedOptimization>();

  addLine(line: string, offset = 0): void {
    this.lineOffset = offset;
    // Counted on the line as written, before the reader's own handling of glued heads.
    for (let at = line.indexOf(BAILOUT_OPENING); at >= 0; at = line.indexOf(BAILOUT_OPENING, at + 1)) this.raw.bailouts++;
    for (let glued = GLUED_HEAD.exec(line); glued !== null; glued = GLUED_HEAD.exec(line)) line = line.slice(glued[0].length);
    if (line.startsWith(BAILOUT_OPENING)) {
      this.flush();
      const m = BAILOUT.exec(line);
      if (m) {
        this.raw.bailoutsRead++;
        const sfi = m[4]!;
        this.awaitingInstall.delete(sfi);
        this.pending = {
          kind: m[1]!,
          reason: m[2]!,
          optimizedName: (m[3] ?? '').trim(),
          innermostName: null,
          tier: tierOf(m[5]),
          position: null,
          inlinedAt: [],
          rawPosition: '',
          sfi,
          seq: this.seq++,
          offset: this.lineOffset,
        };
      }
      return;
    }
    if (line.startsWith('[completed ') || line.startsWith('[optimizing ')) {
      this.flush();
      if (OPTIMIZATION_OPENING.test(line)) this.raw.optimizationLines++;
      this.addOptimization(line);
      return;
    }
    if (this.pending) {
      const frame = INPUT_FRAME.exec(line);
      if (frame) this.pending.innermostName = frame[1]!.trim();
    }
    if (this.pending && this.pending.rawPosition === '') {
      const at = DEOPTIMIZE_AT.exec(line);
      if (at) {
        const chain = parseDeoptPosition(at[1]!);
        this.pending.rawPosition = at[1]!;
        this.pending.position = chain.innermost;
        this.pending.inlinedAt = chain.inlinedAt;
      }
    }
    if (line.startsWith('[bailout end')) this.flush();
  }

  finish(): TracedDeopt[] {
    this.flush();
    return this.deopts;
  }

  private addOptimization(line: string): void {
    const m = OPTIMIZED.exec(line);
    if (m === null) return;
    this.raw.optimizationLinesRead++;
    const installed = m[1] === 'completed optimizing';
    if (installed !== (m[6] === ']')) return;
    const sfi = m[3]!;
    const tier = tierOf(m[4]) ?? 'unknown';
    const compiled = this.awaitingInstall.get(sfi);
    this.awaitingInstall.delete(sfi);
    // The install line of the compile just read: already counted.
    if (installed && compiled !== undefined && compiled.tier === tier) return;
    const optimization: TracedOptimization = { name: (m[2] ?? '').trim(), sfi, tier, osr: m[5] !== undefined, seq: this.seq++, offset: this.lineOffset };
    this.optimizations.push(optimization);
    if (!installed) this.awaitingInstall.set(sfi, optimization);
  }

  private flush(): void {
    if (this.pending) this.deopts.push(this.pending);
    this.pending = null;
  }
}

/** Bailouts and optimizations of a code-trace file, in file order, with each bailout's byte offset. */
export async function readCodeTrace(path: string): Promise<CodeTrace> {
  const reader = new CodeTraceDeoptReader();
  // A regular file only: a FIFO or a device named like a trace would block or never end.
  const handle = await openRegularFile(path);
  const input = handle.createReadStream({ encoding: 'utf8', autoClose: false });
  let offset = 0;
  try {
    for await (const line of readline().createInterface({ input, crlfDelay: Infinity })) {
      reader.addLine(line, offset);
      offset += Buffer.byteLength(line, 'utf8') + 1; // V8 ends its lines with \n
    }
  } finally {
    input.destroy();
    await handle.close();
  }
  return { deopts: reader.finish(), optimizations: reader.optimizations, raw: reader.raw };
}

export async function readCodeTraceDeopts(path: string): Promise<TracedDeopt[]> {
  return (await readCodeTrace(path)).deopts;
}

/**
 * The function named `name` that `at` is in: of the functions so named in its script, the one that
 * starts last at or before it. Anonymous functions (top-level code, callbacks) are usually many in a
 * script, and one that ended before `at` cannot be told from the one around it (no ranges here): they
 * are placed only when a single one starts before `at`. Scripts are compared by path, so `file://`
 * URLs (ES modules) and plain paths meet.
 */
function functionNamed(functions: readonly V8Function[], name: string, at: LogPosition): FunctionRef | null {
  let best: V8Function | null = null;
  const starts = new Set<string>();
  for (const fn of functions) {
    if (fn.name !== name || fn.url !== at.url) continue;
    const notAfter = fn.line < at.line || (fn.line === at.line && fn.column <= at.column);
    if (!notAfter) continue;
    starts.add(`${fn.line}:${fn.column}`);
    if (best === null || fn.line > best.line || (fn.line === best.line && fn.column > best.column)) best = fn;
  }
  if (best === null || (name === '' && starts.size > 1)) return null;
  return toFunctionRef(best);
}

/** Functions named in a CPU profile (start positions, 1-based), as candidates for `FunctionIndex`. */
export function functionsFromProfile(functions: readonly { name: string; url: string; line: number; column: number }[]): V8Function[] {
  return functions
    .filter((f) => f.url !== '' && f.line > 0)
    .map((f) => {
      const path = urlToPath(f.url);
      return { name: f.name === '(anonymous)' ? '' : f.name, url: path, sourceUrl: path, line: f.line, column: f.column, tiers: [], optimizations: [], optimizationDisabled: false, sourceRange: null };
    });
}

function tierOf(code: string | undefined): Tier | null {
  if (code === undefined) return null;
  if (code.startsWith('TURBOFAN')) return 'turbofan';
  if (code.startsWith('MAGLEV')) return 'maglev';
  return 'unknown';
}

/**
 * Turns traced deopts into the log reader's `V8Deopt`s. Times are unknown (the trace has none):
 * `timeMs` is NaN. The profiler that silences `code-deopt` also silences JS `code-creation`, so the
 * functions a position belongs to come from `functions`: pass the CPU profile's (see
 * `functionsFromProfile`). Without a match, a deopt that was not inlined still has the name the
 * trace gives its optimized function.
 */
export function tracedToV8Deopts(traced: readonly TracedDeopt[], functions: readonly V8Function[], source: string): V8Deopt[] {
  const index = new FunctionIndex(functions);
  // Known by name only (line 0): "(anonymous)" is still better than "(unknown)" to show. A bailout
  // without a position (lazy deopts often have none) still names its function.
  const named = (name: string, at: LogPosition | null): FunctionRef => ({ name, url: at?.url ?? '', sourceUrl: at?.sourceUrl ?? '', line: 0, column: 0 });
  return traced.map((t) => {
    const at = t.position;
    // The trace names the innermost function; a profile lists only functions that were sampled, so a
    // position-only lookup can land on an earlier function: trust the name, take the position from a match.
    const found =
      t.innermostName === null
        ? at && index.functionAt(at.sourceUrl, at.line, at.column, -1)
        : (at && functionNamed(functions, t.innermostName, at)) ?? named(t.innermostName, at);
    // The outermost function: where the chain ends (the last inlined-at site), else the deopt itself.
    const outer = t.inlinedAt.at(-1) ?? t.position;
    const optimizedFunction = (outer && functionNamed(functions, t.optimizedName, outer)) ?? named(t.optimizedName, outer);
    const fn = found ?? (t.inlinedAt.length === 0 ? optimizedFunction : null);
    return {
      isolate: basename(source),
      timeMs: Number.NaN,
      kind: t.kind,
      reason: t.reason,
      position: t.position,
      inlinedAt: t.inlinedAt,
      rawPosition: t.rawPosition,
      inliningId: t.inlinedAt.length > 0 ? 0 : -1,
      scriptOffset: -1,
      codeStart: '',
      optimizedFunction,
      tier: t.tier,
      marker: null,
      function: fn,
      seq: t.seq,
    };
  });
}

export interface CodeTraceAnalysis {
  deopts: V8Deopt[];
  /** The traced functions that could be placed, with their optimizations (`seq`, no times) and tiers. */
  functions: V8Function[];
}

/**
 * Deopts and optimizations of a code trace, in the log reader's shapes: `deopts` as from
 * `tracedToV8Deopts`, and a function per traced function (SFI address + name) that could be placed.
 * A function is placed by the positions of its own bailouts, else by its name when exactly one of
 * `functions` (the CPU profile's, see `functionsFromProfile`) has it; otherwise it is left out rather
 * than guessed. Anonymous functions are never placed by name. Times are unknown: each optimization
 * has `seq`, comparable with the deopts' `seq` within this trace (isolate = the file's name).
 */
/**
 * `timeOf`, when the run dated its trace (the agent's size readings), gives the isolate-clock ms at
 * which a line at a byte offset was written, or NaN; without it every time is NaN, as the trace has none.
 * `errorOf` gives how far off that time can be (`timeErrorMs`).
 */
export function analyzeCodeTrace(
  trace: CodeTrace,
  functions: readonly V8Function[],
  source: string,
  timeOf: (offset: number) => number = () => Number.NaN,
  errorOf: (offset: number) => number = () => Number.NaN,
): CodeTraceAnalysis {
  const isolate = basename(source);
  const deopts = tracedToV8Deopts(trace.deopts, functions, source);
  const dated = (offset: number) => {
    const error = errorOf(offset);
    return Number.isFinite(error) ? { timeErrorMs: error } : {};
  };
  deopts.forEach((d, i) => Object.assign(d, { timeMs: timeOf(trace.deopts[i]!.offset) }, dated(trace.deopts[i]!.offset)));
  const byName = uniqueByName(functions);
  const sfiKey = (sfi: string, name: string) => `${sfi} ${name}`;

  // What each traced function's bailouts say about it: a placed function beats one known by name only.
  const fromDeopts = new Map<string, FunctionRef>();
  trace.deopts.forEach((t, i) => {
    const ref = deopts[i]!.optimizedFunction;
    const key = sfiKey(t.sfi, t.optimizedName);
    const known = fromDeopts.get(key);
    if (ref !== null && (known === undefined || (known.line === 0 && ref.line > 0))) fromDeopts.set(key, ref);
  });
  const placed = new Map<string, FunctionRef | null>();
  const place = (sfi: string, name: string): FunctionRef | null => {
    const key = sfiKey(sfi, name);
    let ref = placed.get(key);
    if (ref === undefined) {
      // Its bailouts' positions decide when it has any: a function of that name elsewhere (or starting
      // after them) is another one. Only a function that never deopted is placed by its name alone.
      const known = fromDeopts.get(key) ?? null;
      const unique = name === '' ? undefined : byName.get(name);
      ref = known ?? (unique ? toFunctionRef(unique) : null);
      // Unplaced anonymous functions of a script all look alike: their timelines must not be merged.
      if (ref !== null && ref.line === 0 && ref.name === '') ref = null;
      placed.set(key, ref);
    }
    return ref;
  };

  // A bailout without a position (`<unknown>`) gets the place its function's other bailouts give it.
  trace.deopts.forEach((t, i) => {
    const d = deopts[i]!;
    const ref = place(t.sfi, t.optimizedName);
    const current = d.optimizedFunction;
    // A function known by name alone (no file: the bailout had no position) is no place at all.
    const currentPlaced = current !== null && (current.url !== '' || current.line > 0);
    if (ref === null || (currentPlaced && (ref.line === 0 || current.line > 0))) return;
    const wasInnermost = d.function !== null && d.optimizedFunction !== null && functionKey(d.function) === functionKey(d.optimizedFunction);
    d.optimizedFunction = ref;
    if (t.inlinedAt.length === 0 && (d.function === null || wasInnermost) && (t.innermostName ?? ref.name) === ref.name) d.function = ref;
  });

  const out = new Map<string, V8Function>();
  const entry = (ref: FunctionRef): V8Function => {
    const key = functionKey(ref);
    let fn = out.get(key);
    if (fn === undefined) out.set(key, (fn = { ...toFunctionRef(ref), tiers: [], optimizations: [], optimizationDisabled: false, sourceRange: null }));
    return fn;
  };
  for (const o of trace.optimizations) {
    const ref = place(o.sfi, o.name);
    if (ref !== null) entry(ref).optimizations.push({ isolate, timeMs: timeOf(o.offset), tier: o.tier, seq: o.seq, ...dated(o.offset) });
  }
  for (const d of deopts) if (d.optimizedFunction !== null && d.tier !== null) entry(d.optimizedFunction).tiers.push(d.tier);
  for (const fn of out.values()) fn.tiers = sortTiers([...new Set([...fn.tiers, ...fn.optimizations.map((o) => o.tier)])]);
  return { deopts, functions: [...out.values()] };
}

/** Functions by name, for the names exactly one function has (one start position, counted once). */
function uniqueByName(functions: readonly V8Function[]): Map<string, V8Function> {
  const byName = new Map<string, V8Function | null>();
  const seen = new Set<string>();
  for (const fn of functions) {
    const key = functionKey(fn);
    if (seen.has(key)) continue;
    seen.add(key);
    byName.set(fn.name, byName.has(fn.name) ? null : fn);
  }
  const unique = new Map<string, V8Function>();
  for (const [name, fn] of byName) if (fn !== null) unique.set(name, fn);
  return unique;
}
