import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';

/**
 * Files named by data (a run folder, a profile, a source map) are opened only when they are regular
 * files of a sane size: a FIFO would block the read forever, `/dev/zero` never ends, and a device
 * may do something on open. The type is checked before opening and again on the open handle (the
 * open itself does not block: O_NONBLOCK), so a file swapped in between is caught too.
 */
export class FileRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileRefusedError';
  }
}

/** Regular files ignore O_NONBLOCK; a FIFO opened with it returns at once instead of waiting for a writer. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a path is when it is not a regular file ("a FIFO", "a folder"…); null for a regular file. */
export function notRegularFile(stats: Stats): string | null {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** "630 MB", "12 KB": sizes in refusals. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

export interface ReadLimit {
  /** The largest file read, in bytes. */
  maxBytes: number;
  /** How the file is named in a refusal; default: its base name. */
  shown?: string;
  /** Why the limit is what it is, for the refusal ("the longest string V8 can hold"). */
  why?: string;
}

function refusal(stats: Stats, limit: ReadLimit, path: string): FileRefusedError | null {
  const shown = limit.shown ?? basename(path);
  const kind = notRegularFile(stats);
  if (kind !== null) return new FileRefusedError(`${shown} is ${kind}, not a regular file`);
  if (stats.size > limit.maxBytes) {
    return new FileRefusedError(`${shown} is too large to read (${formatBytes(stats.size)}; at most ${formatBytes(limit.maxBytes)}${limit.why ? `, ${limit.why}` : ''})`);
  }
  return null;
}

/** Opens a regular file within the limit, else throws a FileRefusedError (or the open's own error, ENOENT…). */
export async function openRegularFile(path: string, limit: ReadLimit = { maxBytes: Number.POSITIVE_INFINITY }): Promise<FileHandle> {
  const before = refusal(await stat(path), limit, path);
  if (before) throw before;
  const handle = await open(path, OPEN_FLAGS);
  try {
    const after = refusal(await handle.stat(), limit, path);
    if (after) throw after;
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** A regular file's text (UTF-8), at most `limit.maxBytes` of it; see openRegularFile. */
export async function readRegularFile(path: string, limit: ReadLimit): Promise<string> {
  return (await readRegularFileBytes(path, limit)).toString('utf8');
}

/** readRegularFile's bytes, for binary formats (pprof). */
export async function readRegularFileBytes(path: string, limit: ReadLimit): Promise<Buffer> {
  const handle = await openRegularFile(path, limit);
  try {
    const { size } = await handle.stat();
    // What the file held when opened: one that grows meanwhile (a live log) is read up to there.
    const buffer = Buffer.allocUnsafe(Math.min(size, limit.maxBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** readRegularFile for synchronous callers (source text for the annotations). */
export function readRegularFileSync(path: string, limit: ReadLimit): string {
  const before = refusal(statSync(path), limit, path);
  if (before) throw before;
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stats = fstatSync(fd);
    const after = refusal(stats, limit, path);
    if (after) throw after;
    const buffer = Buffer.allocUnsafe(Math.min(stats.size, limit.maxBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.toString('utf8', 0, filled);
  } finally {
    closeSync(fd);
  }
}

/** Whether a file's last byte is a newline: a text log without one was cut while being written. */
export async function endsWithNewline(path: string): Promise<boolean> {
  const handle = await openRegularFile(path);
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, size - 1);
    return byte[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
