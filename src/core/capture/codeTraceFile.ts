/**
 * Where V8 writes the code trace (`--redirect-code-traces-to`): the deopts and optimizations of a run
 * with a CPU profile come only from there.
 *
 * Why this exists: V8 copies that path into a 128-byte buffer (CodeTracer's `filename_`) and cuts a
 * longer one without a word, so the trace lands in a file nobody reads and the run shows no deopts.
 * Measured on Node 18, 20, 22 and 24: a 131-byte `…/code-traces.asm` became `…/code-traces.`. Run
 * folders sit deep inside real projects (and CI checkouts), so a path that does not fit is written
 * to a short temporary folder and moved into the run folder when the target has ended.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rename, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '../util/errors';

/** Longest path V8 keeps whole: 127 bytes and the terminating NUL. */
export const V8_CODE_TRACE_PATH_MAX_BYTES = 127;

export function fitsV8CodeTracePath(path: string): boolean {
  return Buffer.byteLength(path, 'utf8') <= V8_CODE_TRACE_PATH_MAX_BYTES;
}

export interface CodeTraceFile {
  /** The path to give V8. */
  readonly writePath: string;
  /** Where the trace belongs: the run folder. */
  readonly finalPath: string;
  /** Set when no path V8 accepts could be found: deopts under the CPU profiler will be missing. */
  readonly problem: string | null;
  /** Moves a staged trace into the run folder; returns a warning when that failed, else null. */
  collect(): Promise<string | null>;
}

export async function prepareCodeTraceFile(finalPath: string, tempRoots: readonly string[] = defaultTempRoots()): Promise<CodeTraceFile> {
  if (fitsV8CodeTracePath(finalPath)) return { writePath: finalPath, finalPath, problem: null, collect: async () => null };
  for (const root of tempRoots) {
    const dir = await mkdtemp(join(root, 'v8-lens-')).catch(() => null);
    if (dir === null) continue;
    const writePath = join(dir, 'code-traces.asm');
    if (fitsV8CodeTracePath(writePath)) return { writePath, finalPath, problem: null, collect: () => moveInto(writePath, finalPath, dir) };
    await rm(dir, { recursive: true, force: true });
  }
  const problem =
    `deopts: the run folder's path is longer than the ${V8_CODE_TRACE_PATH_MAX_BYTES} bytes V8 accepts for its code trace, ` +
    'and no short temporary folder was writable, so deopts while the CPU profile runs are not recorded; choose a shorter run folder';
  return { writePath: finalPath, finalPath, problem, collect: async () => null };
}

function defaultTempRoots(): string[] {
  const roots = [tmpdir()];
  if (process.platform !== 'win32' && !roots.includes('/tmp')) roots.push('/tmp');
  return roots;
}

async function moveInto(from: string, to: string, stagingDir: string): Promise<string | null> {
  // No trace at all is not a failure here: the analysis says what that means for the deopts.
  if (existsSync(from)) {
    try {
      await rename(from, to).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EXDEV') throw err;
        await copyFile(from, to); // another file system: rename cannot cross it
        await unlink(from);
      });
    } catch (err) {
      return `deopts: the code trace could not be moved into the run folder (${errorMessage(err)}); it is kept at ${from}`;
    }
  }
  await rm(stagingDir, { recursive: true, force: true }).catch(() => undefined);
  return null;
}
