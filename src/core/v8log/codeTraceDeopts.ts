/**
 * Deopts from V8's code-trace output (`--trace-deopt-verbose`, redirected to a file with
 * `--redirect-code-traces-to`).
 *
 * Why this exists: while a CPU profiler runs (`--cpu-prof`, or the inspector's Profiler), V8 writes
 * no `code-deopt` events to the log at all; `code-creation` is still logged. Checked on Node 20, 22
 * and 24 with the same program: 4 `code-deopt` lines without `--cpu-prof`, 0 with it, while the
 * deopts still happen. The verbose trace still carries kind, reason, the function, the tier and the
 * `;;; deoptimize at <pos>( inlined at <pos>)*` chain; it has no timestamps.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { FunctionIndex } from './functionIndex';
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
}

// Node 18 has no `<Code …>` part; Node 24 says MAGLEV / TURBOFAN_JS. The reason may contain `)`.
const BAILOUT =
  /^\[bailout \(kind: ([\w-]+), reason: (.*?)\): begin\. deoptimizing 0x[0-9a-f]+ <JSFunction ?([^<(]*?)? ?(?:<[^>]*> )?\(sfi = 0x[0-9a-f]+\)>, (?:0x[0-9a-f]+ <Code ([A-Z_]+)>, )?/;
const DEOPTIMIZE_AT = /^\s*;;; deoptimize at (<.*>)\s*$/;
const INPUT_FRAME = /^\s*reading input frame (.*?) => /;

export class CodeTraceDeoptReader {
  readonly deopts: TracedDeopt[] = [];
  private pending: TracedDeopt | null = null;

  addLine(line: string): void {
    if (line.startsWith('[bailout (')) {
      this.flush();
      const m = BAILOUT.exec(line);
      if (m) {
        this.pending = {
          kind: m[1]!,
          reason: m[2]!,
          optimizedName: (m[3] ?? '').trim(),
          innermostName: null,
          tier: tierOf(m[4]),
          position: null,
          inlinedAt: [],
          rawPosition: '',
        };
      }
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

  private flush(): void {
    if (this.pending) this.deopts.push(this.pending);
    this.pending = null;
  }
}

export async function readCodeTraceDeopts(path: string): Promise<TracedDeopt[]> {
  const reader = new CodeTraceDeoptReader();
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) reader.addLine(line);
  return reader.finish();
}

function functionNamed(functions: readonly V8Function[], name: string, at: LogPosition): FunctionRef | null {
  let best: V8Function | null = null;
  for (const fn of functions) {
    if (fn.name !== name || fn.sourceUrl !== at.sourceUrl) continue;
    const notAfter = fn.line < at.line || (fn.line === at.line && fn.column <= at.column);
    if (notAfter && (best === null || fn.line > best.line || (fn.line === best.line && fn.column > best.column))) best = fn;
  }
  return best && { name: best.name, url: best.url, sourceUrl: best.sourceUrl, line: best.line, column: best.column };
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
  const named = (name: string, at: LogPosition | null): FunctionRef | null =>
    name === '' || at === null ? null : { name, url: at.url, sourceUrl: at.sourceUrl, line: 0, column: 0 };
  return traced.map((t) => {
    const at = t.position;
    const byPosition = at ? index.functionAt(at.sourceUrl, at.line, at.column, -1) : null;
    // The trace names the innermost function; a profile lists only functions that were sampled, so a
    // position-only lookup can land on an earlier function: trust the name, take the position from a match.
    const found =
      t.innermostName === null || byPosition?.name === t.innermostName
        ? byPosition
        : (at && functionNamed(functions, t.innermostName, at)) ?? named(t.innermostName, at);
    // The outermost function: where the chain ends (the last inlined-at site), else the deopt itself.
    const outer = t.inlinedAt.at(-1) ?? t.position;
    const optimizedAt = outer ? index.functionAt(outer.sourceUrl, outer.line, outer.column, -1) : null;
    const optimizedFunction: FunctionRef | null =
      optimizedAt && (t.optimizedName === '' || optimizedAt.name === t.optimizedName) ? optimizedAt : named(t.optimizedName, outer);
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
    };
  });
}
