/**
 * Finds the function a source position belongs to, among the functions `code-creation` reported.
 * Needed for deopts in inlined code: the log names only the outermost optimized function.
 *
 * Two methods, the exact one first:
 * 1. Source ranges. `code-source-info` gives each function's [start, end] as UTF-16 offsets in its
 *    script, and `code-deopt` gives the innermost position's offset: the smallest range that contains
 *    the offset is the innermost enclosing function.
 * 2. Start positions (heuristic, when the log has no `code-source-info` for that script): the function
 *    of the same file whose start (line, column) is the greatest one not after the position. This is
 *    wrong when a nested function ends before the position, e.g. a deopt in `outer` after an inner
 *    closure is attributed to the closure.
 */
import type { FunctionRef, V8Function } from './types';

/** Functions are identified by script, start position and name (SFI addresses move and differ per isolate). */
export function functionKey(fn: FunctionRef): string {
  return `${fn.sourceUrl}\u0000${fn.line}\u0000${fn.column}\u0000${fn.name}`;
}

/** A plain copy, so a deopt does not drag the function's timeline along when serialized. */
export function toFunctionRef(fn: FunctionRef): FunctionRef {
  return { name: fn.name, url: fn.url, sourceUrl: fn.sourceUrl, line: fn.line, column: fn.column };
}

export class FunctionIndex {
  private readonly byUrl = new Map<string, V8Function[]>();

  constructor(functions: Iterable<V8Function>) {
    for (const fn of functions) {
      const list = this.byUrl.get(fn.sourceUrl);
      if (list === undefined) this.byUrl.set(fn.sourceUrl, [fn]);
      else list.push(fn);
    }
  }

  /** `sourceUrl` as V8 wrote it; `scriptOffset` < 0 when unknown. */
  functionAt(sourceUrl: string, line: number, column: number, scriptOffset: number): FunctionRef | null {
    const candidates = this.byUrl.get(sourceUrl);
    if (candidates === undefined) return null;
    const fn =
      (scriptOffset >= 0 ? smallestRangeContaining(candidates, scriptOffset) : null) ??
      greatestStartNotAfter(candidates, line, column);
    return fn === null ? null : toFunctionRef(fn);
  }
}

function smallestRangeContaining(candidates: V8Function[], offset: number): V8Function | null {
  let best: V8Function | null = null;
  let bestLength = Infinity;
  for (const fn of candidates) {
    const r = fn.sourceRange;
    if (r === null || offset < r.start || offset > r.end) continue;
    if (r.end - r.start < bestLength) {
      best = fn;
      bestLength = r.end - r.start;
    }
  }
  return best;
}

function greatestStartNotAfter(candidates: V8Function[], line: number, column: number): V8Function | null {
  let best: V8Function | null = null;
  for (const fn of candidates) {
    const notAfter = fn.line < line || (fn.line === line && fn.column <= column);
    if (!notAfter) continue;
    if (best === null || fn.line > best.line || (fn.line === best.line && fn.column > best.column)) best = fn;
  }
  return best;
}
