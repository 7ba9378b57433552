import type { Writable } from 'node:stream';

/**
 * One of our own output streams (stdout, stderr) whose reader may go away at any time:
 * `v8-lens profile … | head -c 1000` closes the pipe after 1000 bytes. Node reports that as an
 * `error` event (EPIPE) which, unhandled, ends the process with a stack trace, killing the run with
 * it. Here a stream that fails is "closed": from then on writes are dropped (and say "not full"),
 * whoever waits for a drain is let go, and `onClosed` is told once.
 */
export class OutputPipe {
  private closedBy: string | null = null;

  constructor(
    private readonly stream: Writable,
    private readonly onClosed: (reason: string) => void = () => undefined,
  ) {
    // Stays for good: a destroyed stream may still report errors of writes already queued.
    stream.on('error', (err: NodeJS.ErrnoException) => this.close(err.code ?? err.message));
  }

  /** Null while the reader is there; else why it is not (`EPIPE`…). */
  get closed(): string | null {
    return this.closedBy;
  }

  /** Like Writable.write: false when the reader is behind (wait for `whenDrained`). */
  write(chunk: string | Uint8Array): boolean {
    if (this.closedBy !== null || this.stream.destroyed) return true;
    return this.stream.write(chunk);
  }

  /** Resolves when the reader has caught up, or is gone. */
  whenDrained(): Promise<void> {
    const { stream } = this;
    if (this.closedBy !== null || stream.destroyed || !stream.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('close', done);
        stream.off('error', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
      stream.on('error', done);
    });
  }

  private close(reason: string): void {
    if (this.closedBy !== null) return;
    this.closedBy = reason;
    this.onClosed(reason);
  }
}
