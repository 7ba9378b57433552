/**
 * The code objects alive in one isolate, from `code-creation` (start..start+size), `code-move` and
 * `code-delete`, so a `code-deopt`'s code start address can be resolved to the optimized function
 * and its tier. Addresses are bigints: x64 user space fits a double today, tagged or arm64 pointers
 * need not.
 */
import type { CodeState, FunctionRef } from './types';

export interface CodeEntry {
  start: bigint;
  size: number;
  /** The `code-creation` type as V8 wrote it (`JS`, `LazyCompile`, `Builtin`, …). */
  type: string;
  /** The JS function the code belongs to; null for builtins, stubs, regexps, … */
  fn: FunctionRef | null;
  state: CodeState | null;
}

export function parseAddress(text: string): bigint | null {
  if (!/^0x[0-9a-fA-F]+$/.test(text)) return null;
  return BigInt(text);
}

export class CodeMap {
  private readonly byStart = new Map<bigint, CodeEntry>();
  /** Starts sorted ascending, rebuilt only when a range lookup needs it (exact hits are the norm). */
  private sortedStarts: bigint[] | null = null;

  get size(): number {
    return this.byStart.size;
  }

  /** A new entry at an existing start replaces the old one: V8 does not log every code-delete. */
  add(entry: CodeEntry): void {
    if (!this.byStart.has(entry.start)) this.sortedStarts = null;
    this.byStart.set(entry.start, entry);
  }

  move(from: bigint, to: bigint): boolean {
    const entry = this.byStart.get(from);
    if (entry === undefined) return false;
    this.byStart.delete(from);
    this.add({ ...entry, start: to });
    this.sortedStarts = null;
    return true;
  }

  delete(start: bigint): boolean {
    const deleted = this.byStart.delete(start);
    if (deleted) this.sortedStarts = null;
    return deleted;
  }

  /** The entry starting at `address`, else the one whose range contains it. */
  find(address: bigint): CodeEntry | null {
    const exact = this.byStart.get(address);
    if (exact !== undefined) return exact;
    const starts = (this.sortedStarts ??= [...this.byStart.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    let lo = 0;
    let hi = starts.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= address) {
        best = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (best < 0) return null;
    const entry = this.byStart.get(starts[best]!);
    return entry !== undefined && address < entry.start + BigInt(entry.size) ? entry : null;
  }
}
