/**
 * Reads a launched process's output pipe in batches rather than line by line.
 *
 * V8 writes each `--trace-gc` line with a write of its own, and Node's stream delivers each as a
 * chunk: a wake-up, a read and a pass through the stream machinery, about 0.17 ms of our CPU each
 * (measured: 300 chunks of an allocation-heavy script cost a reader that does nothing with them
 * 50–75 ms of CPU during the script's 1.5 s). On a machine of 2 cores that CPU is taken from the
 * target's GC helper threads. Paced, the pipe is read at most once per `intervalMs` while output is
 * light; the lines wait in the kernel's pipe buffer meanwhile. Output after a quiet spell (a line
 * now and then) is read at once, and so is all of it once the writer has exited (`readAtOnce`).
 * A writer that fills that buffer (a chatty app) is read at once too, until its output is light
 * again: it is never made to wait.
 *
 * The pipe must have been created with a high-water mark of 1 byte (`launchTarget({ paced })`):
 * then Node stops reading it as soon as one chunk waits to be read, and the rest stays in the kernel.
 */
import type { Readable } from 'node:stream';

/**
 * Monotonic ms. Not `performance.now()`: its first use loads perf_hooks, 1.5-5 ms of the CLI's CPU just
 * as the target starts, beside it.
 */
const nowMs = (): number => process.uptime() * 1000;

/** A drain that got this much says the writer is fast: read it at once until it is not. */
const BURST_BYTES = 16 * 1024;

export interface PacedReader {
  /** Stops delivering (the consumer is behind); the writer waits once the pipe buffer is full. */
  hold(): void;
  release(): void;
  /** From now on reads at once: the writer has exited, and what it wrote and the pipe's end are the last. */
  readAtOnce(): void;
  /** How the pipe was read: for tests and benchmarks. */
  readonly stats: { chunks: number; bytes: number; pacedDrains: number; eagerDrains: number };
}

/**
 * Delivers `stream`'s bytes in order to `onChunk`, then calls `onEnd` once. `intervalMs` 0 reads
 * every chunk as it comes (runs whose figures depend on when a line arrived: a load's window).
 */
export function readPaced(stream: Readable, intervalMs: number, onChunk: (bytes: Buffer) => void, onEnd: () => void): PacedReader {
  const stats = { chunks: 0, bytes: 0, pacedDrains: 0, eagerDrains: 0 };
  let held = false;
  /** Reading every chunk as it comes: pace 0, or from readAtOnce on. */
  let unpaced = intervalMs === 0;
  /** The next read goes at once: the last drain was a burst, or what waited while held. */
  let eager = unpaced;
  let timer: NodeJS.Timeout | null = null;
  let lastDrainAt = -Infinity;
  const cancelTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const drain = (how: 'paced' | 'eager') => {
    timer = null;
    if (held) return;
    lastDrainAt = nowMs();
    stats[how === 'paced' ? 'pacedDrains' : 'eagerDrains']++;
    let got = 0;
    let chunk: Buffer | null;
    // read() below empties Node's buffer and restarts the pipe's reading; what the kernel holds
    // comes as one chunk on the next turn of the event loop.
    while (!held && (chunk = stream.read() as Buffer | null) !== null) {
      got += chunk.length;
      stats.chunks++;
      stats.bytes += chunk.length;
      onChunk(chunk);
    }
    eager = unpaced || got >= BURST_BYTES;
  };
  // A throttle: what comes after a quiet spell (a line now and then) is read at once;
  // what follows within `intervalMs` of a read waits for the rest of it.
  const schedule = () => {
    if (held || timer !== null) return;
    const wait = lastDrainAt + intervalMs - nowMs();
    if (eager || wait <= 0) drain('eager');
    else timer = setTimeout(() => drain('paced'), wait);
  };

  stream.pause();
  stream.on('readable', schedule);
  stream.once('end', () => {
    cancelTimer();
    onEnd();
  });
  return {
    hold: () => {
      held = true;
      cancelTimer();
    },
    release: () => {
      if (!held) return;
      held = false;
      // What waited while held goes now: the consumer has caught up.
      eager = true;
      schedule();
    },
    readAtOnce: () => {
      unpaced = true;
      eager = true;
      cancelTimer();
      schedule();
    },
    stats,
  };
}
