/**
 * Returns one shared string for each distinct piece of a line (reasons, types). A plain `slice`
 * of a long line is a view that keeps the whole line alive, so a million events would retain a
 * million trace lines; the handful of distinct reasons V8 prints fit in a small table.
 */
export class StringInterner {
  private readonly known: string[] = [];

  constructor(private readonly capacity = 256) {}

  /** The string `text.slice(start, end)`, shared with earlier calls for the same characters. */
  intern(text: string, start: number, end: number): string {
    const length = end - start;
    if (length === 0) return '';
    for (const s of this.known) {
      if (s.length === length && text.startsWith(s, start)) return s;
    }
    // Copy instead of keeping a view on `text` (see above): a round trip through a char-code
    // array is the portable way to get a flat, independent string.
    const copy = flatCopy(text, start, end);
    if (this.known.length < this.capacity) this.known.push(copy);
    return copy;
  }
}

function flatCopy(text: string, start: number, end: number): string {
  if (end - start > 1024) return text.slice(start, end); // odd input: not worth a huge argument list
  const codes = new Array<number>(end - start);
  for (let i = start; i < end; i++) codes[i - start] = text.charCodeAt(i);
  return String.fromCharCode(...codes);
}
