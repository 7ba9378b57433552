/**
 * Code traces staged in a short temporary folder (capture/codeTraceDir.ts: V8 cuts paths over 127
 * bytes) are moved into the run folder when the target ends. When V8 Lens itself was killed first,
 * they are still in that folder: the next reader of the run (`v8-lens report`, the editor) moves
 * them in, so the deopts are not lost.
 */
import { copyFile, lstat, readdir, rename, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { SessionRecord } from '../../shared/model/session';
import { AGENT_ENV } from '../preload/agentEnv';
import { errorMessage } from '../util/errors';
import type { RunLayout } from './runLayout';

/** What mkdtemp(join(tmp, 'v8-lens-')) makes: nothing else is ever taken from outside the run folder. */
const STAGING_NAME = /^v8-lens-[A-Za-z0-9]{6}$/;
const TRACE_NAME = /^code-(\d+-(\d+|threads)|startup)\.asm$/;

/**
 * The staging folder a session names, when it is one V8 Lens would have made (directly in the
 * temporary folder, with mkdtemp's name); null otherwise, so a crafted session.json cannot point
 * the reader anywhere else.
 */
export function stagingFolderOf(session: SessionRecord, layout: RunLayout, tempRoots: readonly string[] = defaultTempRoots()): string | null {
  const dir = session.launch?.env?.[AGENT_ENV.codeTraceDir];
  if (typeof dir !== 'string' || resolve(dir) === resolve(layout.v8LogDir)) return null;
  const folder = resolve(dir);
  if (!STAGING_NAME.test(basename(folder)) || !tempRoots.some((root) => resolve(root) === dirname(folder))) return null;
  return folder;
}

/**
 * Moves the traces left in a run's staging folder into `v8/`. Returns a warning line when there was
 * something to say (recovered, or could not be), else null.
 */
export async function recoverStagedCodeTraces(layout: RunLayout, session: SessionRecord): Promise<string | null> {
  const folder = stagingFolderOf(session, layout);
  // A target still alive is a run still going (its report opened early): its traces are being written.
  if (folder === null || (session.pid !== null && processAlive(session.pid))) return null;
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => TRACE_NAME.test(n));
  if (names.length === 0) return null;
  const moved: string[] = [];
  const failed: string[] = [];
  for (const name of names) {
    const from = join(folder, name);
    const info = await lstat(from).catch(() => null);
    if (!info?.isFile()) continue; // a link or a FIFO is not a trace V8 wrote
    try {
      await moveFile(from, join(layout.v8LogDir, name));
      moved.push(name);
    } catch (err) {
      failed.push(`${name} (${errorMessage(err)})`);
    }
  }
  if (failed.length > 0) return `deopts: ${failed.length} staged code trace(s) could not be moved into the run folder: ${failed.join(', ')}; they are in ${folder}`;
  await rm(folder, { recursive: true, force: true }).catch(() => undefined);
  return moved.length > 0 ? `deopts: the run ended before V8 Lens collected its code traces; ${moved.length} file(s) recovered from ${folder}` : null;
}

/** rename, or copy and delete when the two folders are on different file systems. */
export async function moveFile(from: string, to: string): Promise<void> {
  await rename(from, to).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await unlink(from);
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function defaultTempRoots(): string[] {
  const roots = [tmpdir()];
  if (process.platform !== 'win32' && !roots.includes('/tmp')) roots.push('/tmp');
  return roots;
}
