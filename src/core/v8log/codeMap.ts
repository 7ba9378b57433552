/**
 * The optimized code alive in one isolate, from `code-creation` (start..start+size), `code-move`
 * and `code-delete`, so a `code-deopt`'s code start address resolves to the optimized function and
 * its tier. Addresses are kept as V8's hex strings (cheap, exact Map keys) and turned into bigints
 * only for the rare range lookup; never into doubles, which tagged or arm64 pointers may not fit.
 */
import type { CodeState, V8Function } from './types';

export interface CodeEntry {
  /** Normalized hex address (see normalizeAddress). */
  start: string;
  size: number;
  /** The `code-creation` type as V8 wrote it (`JS`, `LazyCompile`, …). */
  type: string;
  /** The JS function the code belongs to; null when its name could not be read. */
  fn: V8Function | null;
  state: CodeState | null;
}

const CANONICAL = /^0x(?:0|[1-9a-f][0-9a-f]*)$/;

/** V8 writes `0x` + lowercase hex without leading zeros; other spellings are brought to that form. */
export function normalizeAddress(text: string): string | null {
  if (CANONICAL.test(text)) return text;
  if (!/^0x[0-9a-fA-F]+$/.test(text)) return null;
  return `0x${BigInt(text).toString(16)}`;
}

/** How many new entries a range lookup scans one by one before it merges them into the index. */
const MAX_UNSORTED = 4096;

/** An entry as stored: `live` turns false when the code is moved, deleted or replaced. */
interface Slot {
  entry: CodeEntry;
  live: boolean;
  /** The start as a number, computed when a range lookup first needs it. */
  value: bigint | null;
}

export class CodeMap {
  private readonly byStart = new Map<string, Slot>();
  /**
   * Index for range lookups, which are rare (code-deopt addresses normally hit a start exactly):
   * slots sorted by address, plus the slots added since the last merge. Both may hold dead slots;
   * lookups skip those and the next merge drops them.
   */
  private sorted: Slot[] = [];
  private unsorted: Slot[] = [];

  get size(): number {
    return this.byStart.size;
  }

  /** A new entry at an existing start replaces the old one: V8 does not log every code-delete. */
  add(entry: CodeEntry): void {
    const slot: Slot = { entry, live: true, value: null };
    this.kill(entry.start);
    this.byStart.set(entry.start, slot);
    this.unsorted.push(slot);
  }

  move(from: string, to: string): boolean {
    const slot = this.byStart.get(from);
    if (slot === undefined) return false;
    this.kill(from);
    this.add({ ...slot.entry, start: to });
    return true;
  }

  delete(start: string): boolean {
    return this.kill(start);
  }

  /** The entry starting at `address` (normalized), else the one whose range contains it. */
  find(address: string): CodeEntry | null {
    const exact = this.byStart.get(address);
    if (exact !== undefined) return exact.entry;
    if (this.unsorted.length > MAX_UNSORTED) this.mergeIndex();
    const value = BigInt(address);
    let best = this.greatestSortedNotAfter(value);
    for (const slot of this.unsorted) {
      if (slot.live && valueOf(slot) <= value && (best === null || valueOf(slot) > valueOf(best))) best = slot;
    }
    return best !== null && value < valueOf(best) + BigInt(best.entry.size) ? best.entry : null;
  }

  private kill(start: string): boolean {
    const slot = this.byStart.get(start);
    if (slot === undefined) return false;
    slot.live = false;
    this.byStart.delete(start);
    return true;
  }

  private greatestSortedNotAfter(value: bigint): Slot | null {
    const slots = this.sorted;
    let lo = 0;
    let hi = slots.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (valueOf(slots[mid]!) <= value) lo = mid + 1;
      else hi = mid - 1;
    }
    for (let i = hi; i >= 0; i--) if (slots[i]!.live) return slots[i]!;
    return null;
  }

  /** Sorts the new slots and merges them in (linear in the index), dropping dead ones. */
  private mergeIndex(): void {
    const fresh = this.unsorted.filter((s) => s.live).sort((a, b) => compare(valueOf(a), valueOf(b)));
    const merged: Slot[] = [];
    let i = 0;
    let j = 0;
    while (i < this.sorted.length || j < fresh.length) {
      const a = this.sorted[i];
      const b = fresh[j];
      const next = b === undefined || (a !== undefined && valueOf(a) <= valueOf(b)) ? (i++, a!) : (j++, b);
      if (next.live) merged.push(next);
    }
    this.sorted = merged;
    this.unsorted = [];
  }
}

function valueOf(slot: Slot): bigint {
  return (slot.value ??= BigInt(slot.entry.start));
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
