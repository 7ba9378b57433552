import { Buffer } from 'node:buffer';

/**
 * One shared, independent string per distinct value (reasons, types, isolate addresses). Pieces
 * cut from a line (a regex capture, a `slice`) of 13+ characters are views that keep the whole
 * line alive in V8, so a million events would retain a million trace lines; the handful of
 * distinct values V8 prints fit in a small table.
 */
export class StringInterner {
  private readonly known = new Map<string, string>();
  private readonly capacity: number;
  private lastKey = '';
  private lastValue = '';

  constructor(capacity = 256) {
    this.capacity = capacity;
  }

  intern(s: string): string {
    // Consecutive lines mostly repeat the previous value: a string comparison is cheaper than
    // hashing `s` for the map.
    if (s === this.lastKey) return this.lastValue;
    const known = this.known.get(s);
    if (known !== undefined) return this.remember(s, known);
    // Past capacity (odd input), values are copied rather than kept in a growing table.
    const copy = flatCopy(s);
    if (this.known.size >= this.capacity) return copy;
    this.known.set(copy, copy);
    return this.remember(s, copy);
  }

  private remember(key: string, value: string): string {
    this.lastKey = key;
    this.lastValue = value;
    return value;
  }
}

/**
 * `s` as an independent string: a round trip through char codes is the portable way to get a
 * flat copy that does not point into a larger string (a line read in place from a megabyte chunk
 * of a log would keep the whole chunk alive).
 */
export function flatCopy(s: string): string {
  if (s.length > 1024) return Buffer.from(s, 'utf16le').toString('utf16le'); // odd input: not worth a huge argument list
  const codes = new Array<number>(s.length);
  for (let i = 0; i < s.length; i++) codes[i] = s.charCodeAt(i);
  return String.fromCharCode(...codes);
}
