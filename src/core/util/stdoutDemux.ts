import { StringDecoder } from 'node:string_decoder';
import { ISOLATE_PREFIX_SOURCE } from '../gc/isolatePrefix';

/**
 * Separates V8's trace lines from the app's own output on the stdout they share.
 *
 * V8 prints a trace line wherever the app's output happens to be, even in the middle of an app line
 * (`progress: #` + `[4242:0x3a]   41 ms: Scavenge …\n` + `#\n`), so lines are not the unit here:
 * a V8 line is the text from a `[pid:isolate(:n)]   N ms: ` prefix through the next newline, and
 * everything else is the app's, passed on at once and byte for byte. Memory stays bounded: a
 * partial V8 line longer than `maxV8LineChars` is given back to the app's output.
 */
export interface StdoutDemuxSink {
  /** A V8 line without its `\n` (`terminated` is false only for a last line cut short). */
  v8Line(text: string, terminated: boolean): void;
  /** The app's output, exactly as it arrived. */
  app(text: string): void;
}

/**
 * The start of every timed V8 trace line (`--trace-gc`, `--trace-gc-nvp`, Node 18–24): the isolate
 * prefix the GC parser also uses (Windows prints the address without `0x`), then `   N ms: `.
 */
const V8_LINE_START = new RegExp(`${ISOLATE_PREFIX_SOURCE.replace(/^\^/, '')} +\\d+ ms: `, 'y');
/** What a V8 line start cut at the end of a chunk can look like so far; held until the next chunk. */
const PARTIAL_START = /^\[[\d:xXa-fA-F\] ms]{0,48}$/;

export class StdoutDemux {
  private readonly decoder = new StringDecoder('utf8');
  /** Text held back: an unfinished V8 line, or what may be the start of one. */
  private held = '';
  private heldIsV8Line = false;

  constructor(
    private readonly sink: StdoutDemuxSink,
    private readonly maxV8LineChars = 64 * 1024,
  ) {}

  write(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    if (text.length > 0) this.consume(this.held + text);
  }

  end(): void {
    const rest = this.held + this.decoder.end();
    this.held = '';
    if (rest.length === 0) return;
    if (this.heldIsV8Line || isV8LineAt(rest, 0)) this.sink.v8Line(rest, false);
    else this.sink.app(rest);
    this.heldIsV8Line = false;
  }

  private consume(text: string): void {
    this.held = '';
    this.heldIsV8Line = false;
    let pos = 0; // start of text not yet handed on
    let scan = 0;
    while (scan < text.length) {
      const bracket = text.indexOf('[', scan);
      if (bracket === -1) break;
      if (!isV8LineAt(text, bracket)) {
        scan = bracket + 1;
        continue;
      }
      if (bracket > pos) this.sink.app(text.slice(pos, bracket));
      const nl = text.indexOf('\n', bracket);
      if (nl === -1) {
        this.holdV8Line(text.slice(bracket));
        return;
      }
      this.sink.v8Line(text.slice(bracket, nl), true);
      pos = scan = nl + 1;
    }
    // The tail may be the beginning of a V8 line cut by the chunk boundary.
    const lastBracket = text.lastIndexOf('[');
    if (lastBracket >= pos && PARTIAL_START.test(text.slice(lastBracket))) {
      if (lastBracket > pos) this.sink.app(text.slice(pos, lastBracket));
      this.held = text.slice(lastBracket);
      return;
    }
    if (pos < text.length) this.sink.app(text.slice(pos));
  }

  private holdV8Line(partial: string): void {
    if (partial.length > this.maxV8LineChars) {
      this.sink.app(partial);
      return;
    }
    this.held = partial;
    this.heldIsV8Line = true;
  }
}

function isV8LineAt(text: string, index: number): boolean {
  V8_LINE_START.lastIndex = index;
  return V8_LINE_START.test(text);
}
