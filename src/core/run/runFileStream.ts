/**
 * A file of the run folder written as the run goes (the GC trace, an attach's GC events, a lab run's
 * output log). A write stream whose 'error' is not handled ends the process with a stack trace on
 * the first ENOSPC; here the first error is kept as one line, reported once to `onFailure` (which
 * stops the run as Cancel would, so nothing more is lost), and later writes are dropped.
 *
 * Writes are gathered and handed to the file every 200 ms (or 64 KB): an allocation-heavy target
 * prints a GC line every few ms, and a write per line woke a thread-pool thread and then this
 * process's loop again for each, CPU taken beside the target it measures.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { writeErrorText } from '../util/safeWrite';

/** How long written text may wait for the file, and how much of it. */
const FLUSH_MS = 200;
const FLUSH_CHARS = 64 * 1024;

export class RunFileStream {
  private readonly stream: WriteStream;
  private pending: string[] = [];
  private pendingChars = 0;
  private timer: NodeJS.Timeout | null = null;
  private failure: string | null = null;
  private readonly closed: Promise<void>;

  constructor(
    path: string,
    /** How the file is named in the one line: "gc-trace.log". */
    private readonly name: string,
    private readonly onFailure: (problem: string) => void = () => undefined,
  ) {
    this.stream = createWriteStream(path);
    this.closed = new Promise((resolve) => this.stream.once('close', () => resolve()));
    this.stream.on('error', (err) => {
      if (this.failure !== null) return;
      this.failure = `${this.name} could not be written: ${writeErrorText(err)}`;
      this.onFailure(this.failure);
    });
  }

  /** The first write error as one line ("gc-trace.log could not be written: no space left on the device (ENOSPC)"); null while all went well. */
  get problem(): string | null {
    return this.failure;
  }

  write(text: string): void {
    if (this.failure !== null || this.stream.destroyed) return;
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flush();
    else if (this.timer === null) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      // end() flushes what is left: the timer must not keep a finished process alive.
      this.timer.unref();
    }
  }

  /** Flushes and closes; resolves whatever happened (a failed stream is closed by its error). */
  async end(): Promise<void> {
    this.flush();
    if (!this.stream.destroyed && !this.stream.writableEnded) this.stream.end();
    await this.closed;
  }

  private flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return;
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    if (this.failure === null && !this.stream.destroyed) this.stream.write(text);
  }
}
