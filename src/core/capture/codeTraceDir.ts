/**
 * Where V8 writes the code traces (`--redirect-code-traces-to`): the deopts and optimizations of a run
 * with a CPU profile come only from there. Each process and thread writes its own file in this folder
 * (the preload points V8 at `code-<pid>-<threadId>.asm`, see preload/codeTraceRedirect.ts; no V8 flag
 * of ours is on the command line). `code-startup.asm` is made empty beside them, so a run that wrote
 * no trace at all is told from one whose traces were lost; only a run without a CPU profile (whose
 * deopts come from the V8 log) names it on the command line.
 *
 * Why a folder may be staged: V8 copies the path into a 128-byte buffer (CodeTracer's `filename_`) and
 * cuts a longer one without a word, so the trace lands in a file nobody reads and the run shows no
 * deopts. Measured on Node 18, 20, 22 and 24: a 131-byte `…/code-traces.asm` became `…/code-traces.`.
 * Run folders sit deep inside real projects (and CI checkouts), so a folder whose files would not fit
 * is replaced by a short temporary one, and its files are moved into the run folder when the target ends.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultTempRoots, moveFile } from '../run/stagedCodeTraces';
import { errorMessage } from '../util/errors';

/** Longest path V8 keeps whole: 127 bytes and the terminating NUL. */
export const V8_CODE_TRACE_PATH_MAX_BYTES = 127;
/** Room for the longest name written in the folder: `code-<pid>-<threadId>.asm`, `code-<pid>-threads.asm`. */
const TRACE_NAME_MAX_BYTES = 32;
/** The empty marker made beside the traces (and the V8 log run's `--redirect-code-traces-to`). */
export const STARTUP_TRACE_NAME = 'code-startup.asm';

export function fitsV8CodeTracePath(path: string): boolean {
  return Buffer.byteLength(path, 'utf8') <= V8_CODE_TRACE_PATH_MAX_BYTES;
}

/** Whether every trace file V8 Lens names in `dir` keeps its whole path in V8. */
export function fitsV8CodeTraceDir(dir: string): boolean {
  return Buffer.byteLength(dir, 'utf8') + 1 + TRACE_NAME_MAX_BYTES <= V8_CODE_TRACE_PATH_MAX_BYTES;
}

export interface CodeTraceDir {
  /** The folder to give the preload (and, with `startupPath`, V8). */
  readonly writeDir: string;
  /** Where the traces belong: the run folder's `v8/`. */
  readonly finalDir: string;
  readonly startupPath: string;
  /** Set when no folder V8 accepts could be found: deopts under the CPU profiler will be missing. */
  readonly problem: string | null;
  /** Moves staged traces into the run folder; returns a warning when that failed, else null. */
  collect(): Promise<string | null>;
}

export async function prepareCodeTraceDir(finalDir: string, tempRoots: readonly string[] = defaultTempRoots()): Promise<CodeTraceDir> {
  const inPlace = (problem: string | null): CodeTraceDir => ({
    writeDir: finalDir,
    finalDir,
    startupPath: join(finalDir, STARTUP_TRACE_NAME),
    problem,
    collect: async () => null,
  });
  if (fitsV8CodeTraceDir(finalDir)) return inPlace(null);
  for (const root of tempRoots) {
    const dir = await mkdtemp(join(root, 'v8-lens-')).catch(() => null);
    if (dir === null) continue;
    if (fitsV8CodeTraceDir(dir)) {
      return { writeDir: dir, finalDir, startupPath: join(dir, STARTUP_TRACE_NAME), problem: null, collect: () => moveAll(dir, finalDir) };
    }
    await rm(dir, { recursive: true, force: true });
  }
  return inPlace(
    `deopts: the run folder's path is too long for V8's ${V8_CODE_TRACE_PATH_MAX_BYTES}-byte code-trace path, ` +
      'and no short temporary folder was writable, so deopts while the CPU profile runs are not recorded; choose a shorter run folder',
  );
}

async function moveAll(from: string, to: string): Promise<string | null> {
  // No trace at all is not a failure here: the analysis says what that means for the deopts.
  const names = await readdir(from).catch(() => [] as string[]);
  const failed: string[] = [];
  for (const name of names) {
    try {
      await moveFile(join(from, name), join(to, name));
    } catch (err) {
      failed.push(`${name} (${errorMessage(err)})`);
    }
  }
  if (failed.length > 0) return `deopts: ${failed.length} code trace(s) could not be moved into the run folder: ${failed.join(', ')}; they are kept in ${from}`;
  await rm(from, { recursive: true, force: true }).catch(() => undefined);
  return null;
}
