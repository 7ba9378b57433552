/**
 * Reads a saved GC trace (a run's gc-trace.log, or `v8-lens report gc.log`) into a collector as a
 * stream of bytes: a fixed buffer refilled from the file, each line handed to the collector in
 * place, so a gigabyte log is read in bounded memory (only the events' columns grow) and never as
 * one string. Lines end as readline ends them: "\n", "\r\n" or a lone "\r".
 */
import { Buffer } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { GcTraceCollector } from './gcTraceCollector';

/** Bytes read at a time; also the longest line held whole (V8's longest, an NVP line, is a few KB). */
export const GC_TRACE_CHUNK_BYTES = 1 << 20;

const LF = 0x0a;
const CR = 0x0d;

export interface GcTraceFileRead {
  /** What the last line was; null for a file without lines. */
  lastKind: 'gc' | 'v8' | 'app' | null;
  /** The file's last byte is a "\n" (or the file is empty). */
  endsWithNewline: boolean;
}

/**
 * Feeds `handle`'s first `size` bytes to `collector`, line by line. A line longer than the chunk
 * cannot be V8's: it is skipped as the app's output, without being held whole.
 */
export async function readGcTraceInto(collector: GcTraceCollector, handle: FileHandle, size: number, chunkBytes = GC_TRACE_CHUNK_BYTES): Promise<GcTraceFileRead> {
  const buffer = Buffer.allocUnsafe(chunkBytes);
  let lastKind: GcTraceFileRead['lastKind'] = null;
  let position = 0;
  /** Bytes of an unfinished line kept at the start of the buffer. */
  let held = 0;
  /** The last chunk ended in "\r": a "\n" first in the next one belongs to it. */
  let afterCr = false;
  /** Inside a line too long to hold, until its end. */
  let skipping = false;
  let lastByte = LF;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, held, Math.min(chunkBytes - held, size - position), position);
    if (bytesRead === 0) break; // the file shrank since it was measured
    position += bytesRead;
    const end = held + bytesRead;
    lastByte = buffer[end - 1]!;
    let start = 0;
    if (afterCr && held === 0 && buffer[0] === LF) start = 1;
    afterCr = false;
    let nextCr = buffer.indexOf(CR, start);
    if (nextCr >= end) nextCr = -1;
    for (;;) {
      let lineEnd = buffer.indexOf(LF, start);
      if (lineEnd >= end) lineEnd = -1;
      if (nextCr >= 0 && nextCr < start) {
        nextCr = buffer.indexOf(CR, start);
        if (nextCr >= end) nextCr = -1;
      }
      let next: number;
      if (nextCr >= 0 && (lineEnd < 0 || nextCr < lineEnd)) {
        // "\r\n" is one line end; a lone "\r" is one too.
        if (nextCr + 1 === end) afterCr = true;
        next = nextCr + 1 < end && buffer[nextCr + 1] === LF ? nextCr + 2 : nextCr + 1;
        lineEnd = nextCr;
      } else if (lineEnd >= 0) {
        next = lineEnd + 1;
      } else break;
      if (skipping) {
        skipping = false;
        lastKind = 'app';
      } else lastKind = collector.addBytes(buffer, start, lineEnd);
      start = next;
    }
    // The unfinished line moves to the front, or is dropped as too long to be V8's.
    held = end - start;
    if (held === chunkBytes) {
      skipping = true;
      held = 0;
    } else if (held > 0 && start > 0) buffer.copyWithin(0, start, end);
  }
  if (held > 0 && !skipping) lastKind = collector.addBytes(buffer, 0, held);
  else if (skipping) lastKind = 'app';
  return { lastKind, endsWithNewline: lastByte === LF };
}

/**
 * A saved trace read whole into a new collector, from its start to the size it had when opened
 * (a run still writing it may add more); the handle is closed. A last line cut short (the file was
 * truncated) is skipped with a warning naming `name`.
 */
export async function collectGcTraceFile(handle: FileHandle, name: string, warnings: string[]): Promise<GcTraceCollector> {
  try {
    const { size } = await handle.stat();
    // Room for as many events as the file can hold lines (a GC line is over 100 bytes), so the columns
    // are not copied as they grow; pages never written are never touched, so this costs no memory.
    const collector = new GcTraceCollector(Math.min(size / 100, MAX_EVENTS_AT_ONCE));
    const { lastKind, endsWithNewline } = await readGcTraceInto(collector, handle, size);
    if (lastKind !== null && lastKind !== 'gc' && !endsWithNewline) warnings.push(`${name}: the last line is cut short (the file was truncated); it was skipped`);
    return collector;
  } finally {
    await handle.close();
  }
}

/** The most events room is made for before any is read (past it the columns grow as they fill). */
const MAX_EVENTS_AT_ONCE = 1 << 24;
