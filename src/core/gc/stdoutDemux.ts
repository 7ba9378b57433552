import { StringDecoder } from 'node:string_decoder';
import { ISOLATE_PREFIX_SOURCE } from './isolatePrefix';

/**
 * Separates V8's trace lines from the app's own output on the stdout they share.
 *
 * V8 prints a trace line wherever the app's output happens to be, even in the middle of an app line
 * (`progress: #` + `[4242:0x3a]   41 ms: Scavenge …\n` + `#\n`), so lines are not the unit here:
 * a V8 line is the text from a `[pid:isolate(:n)]   N ms: ` prefix through the next newline, and
 * everything else is the app's, passed on at once and byte for byte. Memory stays bounded: a
 * partial V8 line longer than `maxV8LineChars` is given back to the app's output.
 */
export type V8LineKind =
  /** `--trace-gc` / `--trace-gc-nvp` output. */
  | 'trace'
  /**
   * The tail of V8's `[marking dependent code … for deoptimization, reason: …]` (with
   * `--trace-deopt-verbose`): V8 writes its head to the redirected code-trace file and this tail,
   * `) (opt id 3) for deoptimization, reason: code dependencies]`, to stdout.
   */
  | 'deopt-tail';

export interface StdoutDemuxSink {
  /** A V8 line without its `\n` (`terminated` is false only for a last line cut short). */
  v8Line(text: string, terminated: boolean, kind: V8LineKind): void;
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
const DEOPT_TAIL_START = /\) \(opt id \d+\) for deoptimization, reason: /y;
const DEOPT_TAIL_TEMPLATE = ') (opt id 0) for deoptimization, reason: ';
/** Where a V8 line can begin: `[` for traces, `)` for the deopt tail. */
const CANDIDATE = /[[)]/g;

export class StdoutDemux {
  private readonly decoder = new StringDecoder('utf8');
  /** Text held back: an unfinished V8 line, or what may be the start of one. */
  private held = '';
  /** Set when `held` is an unfinished V8 line (rather than what may become one). */
  private heldKind: V8LineKind | null = null;

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
    const kind = this.heldKind ?? v8LineKindAt(rest, 0);
    if (kind !== null) this.sink.v8Line(rest, false, kind);
    else this.sink.app(rest);
    this.heldKind = null;
  }

  private consume(text: string): void {
    this.held = '';
    this.heldKind = null;
    let pos = 0; // start of text not yet handed on
    CANDIDATE.lastIndex = 0;
    for (let m = CANDIDATE.exec(text); m; m = CANDIDATE.exec(text)) {
      const start = m.index;
      const kind = v8LineKindAt(text, start);
      if (kind === null) continue;
      if (start > pos) this.sink.app(text.slice(pos, start));
      const nl = text.indexOf('\n', start);
      if (nl === -1) {
        this.holdV8Line(text.slice(start), kind);
        return;
      }
      this.sink.v8Line(text.slice(start, nl), true, kind);
      pos = nl + 1;
      CANDIDATE.lastIndex = pos;
    }
    // The tail may be the beginning of a V8 line cut by the chunk boundary.
    const tailStart = Math.max(text.lastIndexOf('['), text.lastIndexOf(')'));
    if (tailStart >= pos && couldStartV8Line(text.slice(tailStart))) {
      if (tailStart > pos) this.sink.app(text.slice(pos, tailStart));
      this.held = text.slice(tailStart);
      return;
    }
    if (pos < text.length) this.sink.app(text.slice(pos));
  }

  private holdV8Line(partial: string, kind: V8LineKind): void {
    if (partial.length > this.maxV8LineChars) {
      this.sink.app(partial);
      return;
    }
    this.held = partial;
    this.heldKind = kind;
  }
}

function v8LineKindAt(text: string, index: number): V8LineKind | null {
  const sticky = text[index] === '[' ? V8_LINE_START : DEOPT_TAIL_START;
  sticky.lastIndex = index;
  if (!sticky.test(text)) return null;
  return sticky === V8_LINE_START ? 'trace' : 'deopt-tail';
}

function couldStartV8Line(tail: string): boolean {
  if (tail[0] === '[') return PARTIAL_START.test(tail);
  return tail.length < DEOPT_TAIL_TEMPLATE.length && DEOPT_TAIL_TEMPLATE.startsWith(tail.replace(/\d+/, '0'));
}
