import { StringInterner } from './stringInterner';

/**
 * The prefix V8 puts on its trace lines: `[pid:isolate]`, or `[pid:isolate:N]` (Node 24 and 26: NVP and
 * heap-controller lines). The isolate is printed with C's `%p`: `0x2ee1fc00` on Linux and macOS,
 * `000001BB84659390` (upper-case, zero-padded, no `0x`) on Windows. Everything else is app output,
 * so this pattern decides what is passed through to the user untouched: it is strict, and rejects
 * ordinary lines (`[INFO] …`, `[1, 2, 3]`, JSON arrays) at their first characters.
 * Captures: [1] pid, [2] isolate.
 */
export const ISOLATE_PREFIX_SOURCE = String.raw`^\[(\d{1,10}):(0x[0-9a-fA-F]+|[0-9A-F]{8}|[0-9A-F]{16})(?::\d+)?\]`;

const ISOLATE_PREFIX = new RegExp(ISOLATE_PREFIX_SOURCE);

export interface IsolatePrefix {
  pid: number;
  isolate: string;
  /** Index just after the closing `]`. */
  end: number;
}

// Isolate strings seen so far (a process has a few: main thread, workers): events share them.
const knownIsolates = new StringInterner(64);

/** Index just after the prefix's `]`, or -1 when the line does not start with a V8 prefix. */
export function isolatePrefixEnd(line: string): number {
  const m = ISOLATE_PREFIX.exec(line);
  return m === null ? -1 : m[0].length;
}

export function readIsolatePrefix(line: string): IsolatePrefix | null {
  const m = ISOLATE_PREFIX.exec(line);
  if (m === null) return null;
  return { pid: Number(m[1]), isolate: knownIsolates.intern(m[2]!), end: m[0].length };
}
