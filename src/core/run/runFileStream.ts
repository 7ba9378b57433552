/**
 * A file of the run folder written as the run goes (the GC trace, an attach's GC events, a lab run's
 * output log). A write stream whose 'error' is not handled ends the process with a stack trace on
 * the first ENOSPC; here the first error is kept as one line, reported once to `onFailure` (which
 * stops the run as Cancel would, so nothing more is lost), and later writes are dropped.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { writeErrorText } from '../util/safeWrite';

export class RunFileStream {
  private readonly stream: WriteStream;
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
    this.stream.write(text);
  }

  /** Flushes and closes; resolves whatever happened (a failed stream is closed by its error). */
  async end(): Promise<void> {
    if (!this.stream.destroyed && !this.stream.writableEnded) this.stream.end();
    await this.closed;
  }
}
