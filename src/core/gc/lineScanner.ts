/**
 * A cursor over one line, for the hand-written GC line parsers. GC traces can run to millions of
 * lines, and reading fields in place with `startsWith` and `charCodeAt` is several times faster
 * than a regular expression with a dozen capture groups (no match arrays, no substrings per number).
 */

const ZERO = 48;
const NINE = 57;
const DOT = 46;
const MINUS = 45;
const SPACE = 32;
const CARRIAGE_RETURN = 13;

// Exact powers of ten: an integer below 2^53 divided by one of these is correctly rounded, so
// "136.9" gives the same double as Number("136.9").
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

export class LineScanner {
  text = '';
  pos = 0;
  /** End of the content: a trailing `\r` (CRLF logs) is excluded. */
  end = 0;

  reset(text: string, pos: number): void {
    this.text = text;
    this.pos = pos;
    let end = text.length;
    if (end > 0 && text.charCodeAt(end - 1) === CARRIAGE_RETURN) end--;
    this.end = end;
  }

  atEnd(): boolean {
    return this.pos >= this.end;
  }

  peek(): number {
    return this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
  }

  skipSpaces(): void {
    while (this.pos < this.end && this.text.charCodeAt(this.pos) === SPACE) this.pos++;
  }

  /** Consumes `s` if the text continues with it. */
  literal(s: string): boolean {
    if (this.pos + s.length <= this.end && this.text.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }

  /** Reads a decimal number like `-12`, `3.25` or `1.`; NaN (position unchanged) when there is none. */
  number(): number {
    const text = this.text;
    const start = this.pos;
    let i = start;
    const negative = text.charCodeAt(i) === MINUS;
    if (negative) i++;
    let digits = 0;
    let value = 0;
    let decimals = 0;
    let c = text.charCodeAt(i);
    while (c >= ZERO && c <= NINE) {
      value = value * 10 + (c - ZERO);
      digits++;
      c = text.charCodeAt(++i);
    }
    if (c === DOT) {
      c = text.charCodeAt(++i);
      while (c >= ZERO && c <= NINE) {
        value = value * 10 + (c - ZERO);
        digits++;
        decimals++;
        c = text.charCodeAt(++i);
      }
    }
    if (digits === 0 || i > this.end) return NaN;
    this.pos = i;
    if (digits > 15) return Number(text.slice(start, i)); // beyond exact integers: let V8 round
    const magnitude = decimals === 0 ? value : value / POW10[decimals]!;
    return negative ? -magnitude : magnitude;
  }

  /** Index of `s` at or after the cursor within the content, or -1. */
  indexOf(s: string): number {
    const at = this.text.indexOf(s, this.pos);
    return at < 0 || at + s.length > this.end ? -1 : at;
  }

  /** The content from the cursor to `to` (default: the end), without trailing spaces. */
  sliceTrimEnd(to: number = this.end): string {
    let stop = to;
    while (stop > this.pos && this.text.charCodeAt(stop - 1) === SPACE) stop--;
    return this.text.slice(this.pos, stop);
  }
}
