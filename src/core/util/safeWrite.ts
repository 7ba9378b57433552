/**
 * Writing files so that a full disk (ENOSPC), an I/O error or a quota leaves no half file behind:
 * an export is written to a temporary file beside the target and renamed over it only once whole;
 * an append (a CI job's summary) is cut back to where it was when it fails. The errors say what
 * happened in words, for one line.
 */
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errorMessage } from './errors';
import { randomHex } from './randomHex';

const WORDS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EIO: 'an input/output error',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  ENAMETOOLONG: 'its name is too long',
  EFBIG: 'the file would be too large',
  EMFILE: 'too many open files',
};

/** "no space left on the device (ENOSPC)"; the message for anything else. */
export function writeErrorText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code && WORDS[code] ? `${WORDS[code]} (${code})` : errorMessage(err);
}

/** Whether the error is the path the user gave (a folder, no such folder) rather than the disk: a usage error. */
export function isBadPathError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'EISDIR' || code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG';
}

/** Writes `data` to `path` whole or not at all: a temporary file beside it, renamed over it at the end. */
export async function writeFileWhole(path: string, data: string | Uint8Array): Promise<void> {
  const temp = join(dirname(path), `.${basename(path).slice(0, 100)}.${process.pid}.${randomHex()}.tmp`);
  // Created exclusively ('wx'): a name taken already fails rather than writing through it.
  let handle;
  try {
    handle = await open(temp, 'wx');
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, path);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

/** Appends `data` to `path`; when the write fails part way, the file is cut back to its old length. */
export async function appendFileWhole(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'a');
  let before = 0;
  try {
    before = (await handle.stat()).size;
    await handle.appendFile(data);
    await handle.sync();
  } catch (err) {
    await handle.truncate(before).catch(() => undefined);
    throw err;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
