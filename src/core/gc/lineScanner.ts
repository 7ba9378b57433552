import { CharCode } from '../util/charCodes';
const { ZERO, NINE, DOT, MINUS, SPACE, CARRIAGE_RETURN } = CharCode;

// Exact powers of ten: an integer below 2^53 divided by one of these is correctly rounded, so
// "136.9" gives the same double as Number("136.9").
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** A cursor over one line, for reading name=value pairs in place (NVP lines run to several KB). */
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

  skipSpaces(): void {
    while (this.pos < this.end && this.text.charCodeAt(this.pos) === SPACE) this.pos++;
  }

  /** Consumes `s` if the text continues with it. */
  literal(s: string): boolean {
    if (this.pos + s.length > this.end || !this.text.startsWith(s, this.pos)) return false;
    this.pos += s.length;
    return true;
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
}
