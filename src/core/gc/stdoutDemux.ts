import { ISOLATE_PREFIX_SOURCE } from './isolatePrefix';

/**
 * Separates V8's trace lines from the app's own output on the stdout they share.
 *
 * V8 prints a trace line wherever the app's output happens to be, even in the middle of an app line
 * (`progress: #` + `[4242:0x3a]   41 ms: Scavenge …\n` + `#\n`), so lines are not the unit here:
 * a V8 line is the text from a `[pid:isolate(:n)]   N ms: ` prefix through the next newline, and
 * everything else is the app's, passed on at once and byte for byte (bytes, not text: output that
 * is not UTF-8 arrives unchanged). A prefix counts only when its pid is one of the run's processes
 * (`isRunProcess`): an app line that merely looks like a GC line stays the app's. Memory stays
 * bounded: a partial V8 line longer than `maxV8LineChars` is given back to the app's output.
 */
export type V8LineKind =
  /** `--trace-gc` / `--trace-gc-nvp` output. */
  | 'trace'
  /**
   * The tail of V8's `[marking dependent code … for deoptimization, reason: …]` (with
   * `--trace-deopt-verbose`): V8 writes its head to the redirected code-trace file and this tail,
   * `) (opt id 3) for deoptimization, reason: code dependencies]`, to stdout.
   */
  | 'deopt-tail'
  /**
   * The second line of one of V8's two-line messages: Node 26 prints `… ms: Memory pool: Removed
   * pages: 0, removed large pages: 0` and then `, removed zone reservations: 0` on a line of its own,
   * without a prefix. Recognised only right after its first line.
   */
  | 'continuation';

export interface StdoutDemuxSink {
  /** A V8 line without its `\n` (`terminated` is false only for a last line cut short). */
  v8Line(text: string, terminated: boolean, kind: V8LineKind): void;
  /** The app's output, exactly the bytes that arrived (a view: copy it to keep it past the call). */
  app(bytes: Buffer): void;
}

export interface StdoutDemuxOptions {
  /** A held V8 line longer than this is given back to the app's output. */
  maxV8LineChars?: number;
  /**
   * Whether a pid printed in a V8 prefix is one of the run's processes (the target, its forked
   * children, cluster workers: all print GC lines through the same pipe). Default: any pid.
   */
  isRunProcess?: (pid: number) => boolean;
}

/**
 * The start of every timed V8 trace line (`--trace-gc`, `--trace-gc-nvp`, Node 18–24): the isolate
 * prefix the GC parser also uses (Windows prints the address without `0x`), then `   N ms: `.
 * Captures: [1] pid.
 */
// A timed line (`--trace-gc`, `--trace-gc-nvp`), or V8's pretenuring decisions
// (`--trace-pretenuring-statistics`: `[pid:isolate] pretenuring: …`, untimed).
const V8_LINE_START = new RegExp(`${ISOLATE_PREFIX_SOURCE.replace(/^\^/, '')}(?: +\\d+ ms: | pretenuring: )`, 'y');
/** What a V8 line start cut at the end of a chunk can look like so far; held until the next chunk. */
const PARTIAL_START = /^\[[\d:xXa-fA-F\] ms]{0,48}$/;
const PARTIAL_PRETENURING = /^\[[\d:xXa-fA-F]{1,40}\]( .{0,13})$/;
const PRETENURING_BODY = ' pretenuring: ';
const DEOPT_TAIL_START = /\) \(opt id \d+\) for deoptimization, reason: /y;
const DEOPT_TAIL_TEMPLATE = ') (opt id 0) for deoptimization, reason: ';
/** The first line of a two-line V8 message, and how its second line starts. */
const MEMORY_POOL_HEAD = 'Memory pool: ';
const MEMORY_POOL_TAIL = ', removed zone reservations: ';
/** Where a V8 line can begin: `[` for traces, `)` for the deopt tail. */
const CANDIDATE = /[[)]/g;
const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);

/**
 * Works on bytes: each chunk is read as latin1, one character per byte, so an index into the text
 * is an index into the bytes, and the app's parts are handed on as slices of the chunk itself. V8's
 * lines are ASCII; they are decoded as UTF-8 all the same.
 */
export class StdoutDemux {
  /** Bytes held back: an unfinished V8 line, or what may be the start of one. */
  private held: Buffer = EMPTY;
  /** Set when `held` is an unfinished V8 line (rather than what may become one). */
  private heldKind: V8LineKind | null = null;
  /** The last V8 line was the head of a two-line message: the next line may be its tail. */
  private continuationDue = false;
  /** Where the text after `N ms: ` begins in the trace line last recognised. */
  private traceBodyAt = 0;
  private readonly maxV8LineChars: number;
  private readonly isRunProcess: (pid: number) => boolean;

  constructor(
    private readonly sink: StdoutDemuxSink,
    options: StdoutDemuxOptions = {},
  ) {
    this.maxV8LineChars = options.maxV8LineChars ?? 64 * 1024;
    this.isRunProcess = options.isRunProcess ?? (() => true);
  }

  write(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (bytes.length === 0) return;
    this.consume(this.held.length > 0 ? Buffer.concat([this.held, bytes]) : bytes);
  }

  end(): void {
    const rest = this.held;
    this.held = EMPTY;
    const heldKind = this.heldKind;
    this.heldKind = null;
    if (rest.length === 0) return;
    const text = rest.toString('latin1');
    const kind = heldKind ?? (this.continuationDue && text.startsWith(MEMORY_POOL_TAIL) ? 'continuation' : this.v8LineKindAt(text, 0));
    this.continuationDue = false;
    if (kind !== null) this.sink.v8Line(rest.toString('utf8'), false, kind);
    else this.sink.app(rest);
  }

  private consume(bytes: Buffer): void {
    this.held = EMPTY;
    this.heldKind = null;
    const text = bytes.toString('latin1');
    let pos = 0; // start of bytes not yet handed on
    CANDIDATE.lastIndex = 0;
    for (;;) {
      if (this.continuationDue) {
        const tail = this.continuationAt(text, pos);
        if (tail === 'maybe') {
          this.held = Buffer.from(bytes.subarray(pos));
          return;
        }
        this.continuationDue = false;
        if (tail === 'yes') {
          const nl = bytes.indexOf(NEWLINE, pos);
          if (nl === -1) {
            this.holdV8Line(bytes.subarray(pos), 'continuation');
            // Held, it is found again at the start of the next chunk by the same test.
            this.continuationDue = this.heldKind === 'continuation';
            return;
          }
          this.sink.v8Line(bytes.toString('utf8', pos, nl), true, 'continuation');
          pos = nl + 1;
          CANDIDATE.lastIndex = pos;
        }
      }
      const m = CANDIDATE.exec(text);
      if (m === null) break;
      const start = m.index;
      const kind = this.v8LineKindAt(text, start);
      if (kind === null) continue;
      if (start > pos) this.sink.app(bytes.subarray(pos, start));
      const nl = bytes.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.holdV8Line(bytes.subarray(start), kind);
        return;
      }
      this.sink.v8Line(bytes.toString('utf8', start, nl), true, kind);
      this.continuationDue = kind === 'trace' && text.startsWith(MEMORY_POOL_HEAD, this.traceBodyAt);
      pos = nl + 1;
      CANDIDATE.lastIndex = pos;
    }
    // The tail may be the beginning of a V8 line cut by the chunk boundary.
    const tailStart = Math.max(text.lastIndexOf('['), text.lastIndexOf(')'));
    if (tailStart >= pos && couldStartV8Line(text.slice(tailStart))) {
      if (tailStart > pos) this.sink.app(bytes.subarray(pos, tailStart));
      // A copy: the chunk it came from is the caller's (a pooled buffer may be reused).
      this.held = Buffer.from(bytes.subarray(tailStart));
      return;
    }
    if (pos < bytes.length) this.sink.app(pos === 0 ? bytes : bytes.subarray(pos));
  }

  /** Whether the text at `pos` is the tail of the two-line message just read ('maybe': cut too short to tell). */
  private continuationAt(text: string, pos: number): 'yes' | 'no' | 'maybe' {
    const rest = text.length - pos;
    if (rest >= MEMORY_POOL_TAIL.length) return text.startsWith(MEMORY_POOL_TAIL, pos) ? 'yes' : 'no';
    return MEMORY_POOL_TAIL.startsWith(text.slice(pos)) ? 'maybe' : 'no';
  }

  private holdV8Line(partial: Buffer, kind: V8LineKind): void {
    if (partial.length > this.maxV8LineChars) {
      this.sink.app(partial);
      return;
    }
    this.held = Buffer.from(partial);
    this.heldKind = kind;
  }

  private v8LineKindAt(text: string, index: number): V8LineKind | null {
    if (text[index] === '[') {
      V8_LINE_START.lastIndex = index;
      const m = V8_LINE_START.exec(text);
      if (m === null || !this.isRunProcess(Number(m[1]))) return null;
      this.traceBodyAt = V8_LINE_START.lastIndex;
      return 'trace';
    }
    DEOPT_TAIL_START.lastIndex = index;
    return DEOPT_TAIL_START.test(text) ? 'deopt-tail' : null;
  }
}

function couldStartV8Line(tail: string): boolean {
  if (tail[0] === '[') {
    if (PARTIAL_START.test(tail)) return true;
    const body = PARTIAL_PRETENURING.exec(tail)?.[1];
    return body !== undefined && PRETENURING_BODY.startsWith(body);
  }
  return tail.length < DEOPT_TAIL_TEMPLATE.length && DEOPT_TAIL_TEMPLATE.startsWith(tail.replace(/\d+/, '0'));
}
