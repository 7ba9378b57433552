import { StringDecoder } from 'node:string_decoder';

/**
 * Splits a child's stdout into lines for the GC-trace classifier while passing the app's own output
 * through promptly and unchanged.
 *
 * V8's trace lines always start with `[`, so a partial line that starts with anything else can be
 * handed on at once (a progress bar without a newline is not held back). A partial line that starts
 * with `[` is held until its newline, but never beyond `maxHeldChars`: an app that prints a gigabyte
 * without a newline must not grow our memory.
 */
export interface LineSplitterSink {
  /**
   * A line that may be V8 output, without its `\n` (a `\r` before it is left in place, so the
   * line can be passed on byte for byte). `terminated` is false only for a last line cut short.
   */
  line(text: string, terminated: boolean): void;
  /** Output that is certainly the app's, exactly as it arrived (newlines included). */
  passThrough(text: string): void;
}

export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private held = '';
  /** True while we are in the middle of a line that was already passed through. */
  private passingLine = false;

  constructor(
    private readonly sink: LineSplitterSink,
    private readonly maxHeldChars = 64 * 1024,
  ) {}

  write(chunk: Buffer | string): void {
    this.consume(typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
  }

  end(): void {
    this.consume(this.decoder.end());
    if (this.held.length > 0) {
      // A last line without a newline: still offered as a line so a cut trace line is counted.
      const rest = this.held;
      this.held = '';
      this.sink.line(rest, false);
    }
  }

  private consume(text: string): void {
    let start = 0;
    while (start < text.length) {
      const nl = text.indexOf('\n', start);
      if (this.passingLine) {
        const end = nl === -1 ? text.length : nl + 1;
        this.sink.passThrough(text.slice(start, end));
        this.passingLine = nl === -1;
        start = end;
        continue;
      }
      if (nl === -1) {
        this.hold(text.slice(start));
        return;
      }
      const line = this.held + text.slice(start, nl);
      this.held = '';
      this.sink.line(line, true);
      start = nl + 1;
    }
  }

  private hold(partial: string): void {
    const candidate = this.held + partial;
    if (candidate.length > 0 && (candidate[0] !== '[' || candidate.length > this.maxHeldChars)) {
      this.held = '';
      this.passingLine = true;
      this.sink.passThrough(candidate);
      return;
    }
    this.held = candidate;
  }
}
