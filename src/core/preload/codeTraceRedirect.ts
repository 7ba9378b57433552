/**
 * One code trace per process and per thread, with the deopts (`--trace-deopt-verbose`) and the
 * optimizations (`--trace-opt`) that are read from it. V8 keeps a single `--redirect-code-traces-to` path for
 * the whole process, reads it when an isolate first traces something, and truncates that file then:
 * a parent that forks (the child inherits the flag) or a main thread that starts a worker would lose
 * its own deopts to the newcomer's empty file. So each isolate, first thing in the preload, points
 * the flag at a file of its own and makes V8 open it at once (V8 reads the path only then).
 *
 * V8 opens the file on an isolate's first trace line. With `--trace-opt` a function that gets hot is
 * such a line: the probe below runs a tiny function until V8
 * marks it, which takes well under a millisecond, and stops as soon as the file exists. Checked on
 * Node 20, 22 and 24.
 *
 * Flags are per process, so a worker thread starts with the tracing its main thread switched on, and
 * Node 24 traces in a worker thread's start-up, before any preload runs: such a worker's tracer
 * has already taken whatever path the flag held. After its own file is open, each isolate points the
 * flag at `code-<pid>-threads.asm`, so those workers share that file instead of truncating ours;
 * the record says whether a thread got a file of its own (`own`).
 */
import { closeSync, existsSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { v8 } from '../util/lazyBuiltins';
import { CODE_TRACE_PROBE_NAME } from './agentEnv';

/** Where isolates whose tracer started before their preload write (Node 24 worker threads). */
export const sharedThreadsTraceName = (pid: number): string => `code-${pid}-threads.asm`;
export const ownTraceName = (pid: number, threadId: number): string => `code-${pid}-${threadId}.asm`;

export interface CodeTraceRedirect {
  /**
   * The file this isolate's trace goes to: its own; for a worker thread whose tracer started first,
   * its process's shared threads file; null when unknown (a main thread whose tracer started before
   * the preload writes to the command line's start-up file, shared by every such process).
   */
  file: string | null;
  /** False when V8 had opened another file for this isolate before the preload ran. */
  own: boolean;
}

/** At most this many rounds of the probe: enough for TurboFan on Node 20 (4 were needed), cheap when it never happens. */
const MAX_PROBE_ROUNDS = 400;

export function redirectCodeTrace(dir: string, pid: number, threadId: number): CodeTraceRedirect {
  // V8 aborts the process (a CHECK) when it cannot open the trace file: the folder is made first,
  // and a failure to make it throws before any trace flag is set (the run then has no code trace).
  mkdirSync(dir, { recursive: true });
  return withFlagLock(join(dir, `.flags-${pid}.lock`), () => redirect(dir, pid, threadId));
}

/** How long a thread waits for another to finish setting the flag; past it, a stale lock (its thread died holding it) is taken over. */
const FLAG_LOCK_WAIT_MS = 3000;

/**
 * Runs `fn` while no other thread of this process sets the redirect flag. It is a string flag: V8
 * frees the old value when it is set, so two worker threads whose preloads set it at once freed the
 * same string twice (Node 20 aborted the process in about 1 run in 30 of a 2-worker pool: "double
 * free or corruption", "free(): unaligned chunk detected in tcache 2"). Threads share no memory the
 * preload could lock on, so the lock is a file created exclusively, which the kernel makes atomic.
 */
function withFlagLock<T>(lockPath: string, fn: () => T): T {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + FLAG_LOCK_WAIT_MS;
  let fd: number | null = null;
  while (fd === null) {
    try {
      fd = openSync(lockPath, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return fn(); // no lock to be had (a read-only folder): as before
      // Never stuck: a lock that can be neither had nor removed is given up on after twice the wait.
      if (Date.now() > deadline + FLAG_LOCK_WAIT_MS) return fn();
      if (Date.now() > deadline) {
        // Held longer than any redirect takes: its thread ended holding it. Take it over.
        if (staleLock(lockPath)) {
          try {
            unlinkSync(lockPath);
          } catch {
            // another thread took it over first
          }
        }
      }
      Atomics.wait(nap, 0, 0, 1);
    }
  }
  try {
    return fn();
  } finally {
    closeSync(fd);
    try {
      unlinkSync(lockPath);
    } catch {
      // gone already
    }
  }
}

function staleLock(lockPath: string): boolean {
  try {
    return Date.now() - statSync(lockPath).mtimeMs > FLAG_LOCK_WAIT_MS;
  } catch {
    return false;
  }
}

function redirect(dir: string, pid: number, threadId: number): CodeTraceRedirect {
  const file = ownTraceName(pid, threadId);
  const path = join(dir, file);
  // Without `--redirect-code-traces` V8 writes the trace to the app's stdout: switched on here too.
  v8().setFlagsFromString('--redirect-code-traces');
  v8().setFlagsFromString(`--redirect-code-traces-to=${path}`);
  // Only now what is traced: from the command line, a process could trace its own start-up before
  // this preload ran (Node 24 marks path helpers hot while a deep path is resolved) into a shared file.
  // `--trace-deopt` first: setFlagsFromString applies no implications, and V8 14.6 (Node 26) writes
  // bailouts only with `--trace-deopt` itself ("verbose implies trace-deopt" is not applied here);
  // V8 11–13 needed only the verbose flag. Neither adds anything to the app's output.
  v8().setFlagsFromString('--trace-deopt');
  v8().setFlagsFromString('--trace-deopt-verbose');
  v8().setFlagsFromString('--trace-opt');
  let sink = 0;
  for (let round = 0; round < MAX_PROBE_ROUNDS && !existsSync(path); round++) {
    for (let i = 0; i < 1000; i++) sink = probe(sink, i);
  }
  const own = existsSync(path);
  v8().setFlagsFromString(`--redirect-code-traces-to=${join(dir, sharedThreadsTraceName(pid))}`);
  return { file: own ? file : threadId > 0 ? sharedThreadsTraceName(pid) : null, own };
}

// V8 traces a function by its SharedFunctionInfo's name: a method's literal key is that name, and it
// survives minification. A computed key (`[NAME]()`) is not: V8 then traced the variable's name,
// `probe` (or the minifier's), which the reader cannot tell from an app's function. Indexing by the
// constant keeps the key and the constant the same name.
const probe = {
  v8LensCodeTraceProbe(acc: number, i: number): number {
    return (acc * 31 + i) & 0xffff;
  },
}[CODE_TRACE_PROBE_NAME];
