import type { Buffer } from 'node:buffer';
import { flatCopy } from './stringInterner';

/**
 * Strings by index, each kept once (isolates, types, qualifiers, reasons: a handful of distinct
 * values over millions of events). A value is found by its string or, from a line read in place,
 * by its bytes: a value seen before costs a comparison with the bytes of the value in its slot of
 * `recent` (or a hash and a comparison), never a string.
 */
export class TextTable {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  private lastValue = '';
  private lastValueIndex = -1;
  /**
   * Values read from bytes, by a key of their length and three of their bytes: a few values alternate
   * (Scavenge and Mark-Compact, a reason and a collector reason), and each keeps its slot.
   */
  private readonly recent: Array<{ bytes: Uint8Array; index: number }> = Array.from({ length: RECENT_SLOTS }, () => NONE);
  private readonly byHash = new Map<number, { bytes: Uint8Array; index: number }>();

  /** `trim`: a value read from bytes loses its trailing spaces ("allocation failure " in old output). */
  constructor(
    private readonly trim = false,
    first?: string,
  ) {
    if (first !== undefined) this.of(first);
  }

  get size(): number {
    return this.values.length;
  }

  of(value: string): number {
    // Consecutive events mostly repeat a value.
    if (value === this.lastValue && this.lastValueIndex >= 0) return this.lastValueIndex;
    let i = this.index.get(value);
    if (i === undefined) {
      // An independent copy: a piece of a line would keep the whole line alive.
      const copy = flatCopy(value);
      i = this.values.push(copy) - 1;
      this.index.set(copy, i);
    }
    this.lastValue = value;
    this.lastValueIndex = i;
    return i;
  }

  /** The index of the UTF-8 text `b[start, end)`. */
  ofBytes(b: Buffer, start: number, end: number): number {
    const n = end - start;
    if (n > 0) {
      const entry = this.recent[slotOf(b, start, end)]!;
      const bytes = entry.bytes;
      if (bytes.length === n) {
        let k = 0;
        while (k < n && b[start + k] === bytes[k]) k++;
        if (k === n) return entry.index;
      }
    }
    return this.ofOtherBytes(b, start, end);
  }

  /** Kept apart from ofBytes so that its common case stays small enough to inline. */
  private ofOtherBytes(b: Buffer, start: number, end: number): number {
    const n = end - start;
    let hash = 0x811c9dc5;
    for (let k = start; k < end; k++) hash = Math.imul(hash ^ b[k]!, 0x01000193);
    let entry = this.byHash.get(hash);
    if (entry === undefined || !sameBytes(b, start, n, entry.bytes)) {
      // Decoded into a string of its own (not a view into the chunk being read).
      const text = b.toString('utf8', start, end);
      const index = this.of(this.trim ? trimEnd(text) : text);
      const fresh = { bytes: Uint8Array.prototype.slice.call(b, start, end), index };
      // A colliding hash keeps its first value; past capacity (odd input) bytes are not remembered.
      if (entry !== undefined || this.byHash.size >= BYTES_REMEMBERED) return index;
      this.byHash.set(hash, fresh);
      entry = fresh;
    }
    if (n > 0) this.recent[slotOf(b, start, end)] = entry;
    return entry.index;
  }
}

const BYTES_REMEMBERED = 1024;
const RECENT_SLOTS = 64;

/** `recent`'s slot for the bytes `b[start, end)` (not empty): 64 slots (a literal, not RECENT_SLOTS: see traceGcLine.ts). */
function slotOf(b: Buffer, start: number, end: number): number {
  const n = end - start;
  return (n * 7 + b[start]! + 3 * b[end - 1]! + 5 * b[start + (n >> 1)]!) & 63;
}
const NONE = { bytes: new Uint8Array(0), index: -1 };

function sameBytes(b: Buffer, start: number, n: number, bytes: Uint8Array): boolean {
  if (bytes.length !== n) return false;
  for (let k = 0; k < n; k++) if (b[start + k] !== bytes[k]) return false;
  return true;
}

/** Trailing spaces are rare; trimEnd would copy every time. */
function trimEnd(s: string): string {
  return s.length > 0 && s.charCodeAt(s.length - 1) === 0x20 ? s.trimEnd() : s;
}
