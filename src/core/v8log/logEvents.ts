/**
 * Field layouts of the V8 log events we read (V8 log.cc; the same in Node 18–26):
 *   v8-version,<major>,<minor>,<build>,<patch>,<embedder>,<candidate>
 *   code-creation,<type>,<kind int>,<µs>,<start>,<size>,<name>[,<sfi>,<state marker>]
 *   code-source-info,<code start>,<script id>,<start offset>,<end offset>,…
 *   code-move,<from>,<to>    code-delete,<start>    sfi-move,<from>,<to>
 *   code-deopt,<µs>,<code size>,<code start>,<inlining id>,<script offset>,<kind>,<position>,<reason>
 * Each parser takes the split fields and returns null when they do not fit, never throws.
 * We key on event names and marker characters only: numeric CodeKinds and the `code-creation` type
 * names (`LazyCompile`/`Function` in Node 18, `JS` later) differ between versions.
 */
import { parseCodeCreationName } from './codeCreationName';
import { normalizeAddress } from './codeMap';
import { parseCodeState } from './codeState';
import { unescapeCodePoints, unescapeUtf8Bytes } from './logLine';
import { parseDeoptPosition, type DeoptPositionChain } from './sourcePosition';
import type { CodeState, FunctionRef } from './types';

/** "11.3.244.8-node.38" */
export function parseVersionEvent(f: readonly string[]): string | null {
  if (f.length < 5) return null;
  return `${f.slice(1, 5).join('.')}${f[5] ?? ''}`;
}

export interface CodeCreationEvent {
  type: string;
  timeUs: number;
  /** Addresses are normalized hex strings (codeMap.ts). */
  start: string;
  size: number;
  /** Present for JS function code, which carries `,<sfi>,<marker>` after the name. */
  js: { sfi: string; state: CodeState; rawName: string } | null;
}

export function parseCodeCreationEvent(f: readonly string[]): CodeCreationEvent | null {
  const timeUs = Number(f[3]);
  const start = normalizeAddress(f[4] ?? '');
  const size = Number(f[5]);
  if (f.length < 7 || start === null || !Number.isFinite(size) || !Number.isFinite(timeUs)) return null;
  const sfi = f.length >= 9 ? normalizeAddress(f[f.length - 2]!) : null;
  if (sfi === null) return { type: f[1]!, timeUs, start, size, js: null };
  // A raw function name may contain commas: join the name fields back together.
  const rawName = f.length === 9 ? f[6]! : f.slice(6, -2).join(',');
  return { type: f[1]!, timeUs, start, size, js: { sfi, state: parseCodeState(f[f.length - 1]!), rawName } };
}

/** The function a JS `code-creation` name field (as V8 wrote it) names; null when it has no position. */
export function parseFunctionName(rawName: string): FunctionRef | null {
  return parseCodeCreationName(unescapeCodePoints(rawName));
}

export interface CodeSourceInfoEvent {
  start: string;
  scriptId: number;
  /** The function's source range, UTF-16 offsets in its script. */
  startOffset: number;
  endOffset: number;
}

export function parseCodeSourceInfoEvent(f: readonly string[]): CodeSourceInfoEvent | null {
  const start = normalizeAddress(f[1] ?? '');
  const scriptId = Number(f[2]);
  const startOffset = Number(f[3]);
  const endOffset = Number(f[4]);
  if (start === null || !Number.isInteger(startOffset) || !Number.isInteger(endOffset)) return null;
  return { start, scriptId, startOffset, endOffset };
}

/** `code-move` and `sfi-move`. */
export function parseMoveEvent(f: readonly string[]): { from: string; to: string } | null {
  const from = normalizeAddress(f[1] ?? '');
  const to = normalizeAddress(f[2] ?? '');
  return from === null || to === null ? null : { from, to };
}

export function parseCodeDeleteEvent(f: readonly string[]): string | null {
  return normalizeAddress(f[1] ?? '');
}

export interface CodeDeoptEvent extends DeoptPositionChain {
  timeUs: number;
  /** As V8 wrote it. */
  codeStart: string;
  /** Normalized. */
  address: string;
  inliningId: number;
  /** -1 when not a number. */
  scriptOffset: number;
  kind: string;
  reason: string;
  /** The position field, unescaped. */
  rawPosition: string;
}

export function parseCodeDeoptEvent(f: readonly string[]): CodeDeoptEvent | null {
  if (f.length < 9) return null;
  const timeUs = Number(f[1]);
  const codeStart = f[3]!;
  const address = normalizeAddress(codeStart);
  const inliningId = Number(f[4]);
  const scriptOffset = Number(f[5]);
  if (!Number.isFinite(timeUs) || address === null || !Number.isInteger(inliningId)) return null;
  const rawPosition = unescapeUtf8Bytes(f[7]!);
  return {
    timeUs,
    codeStart,
    address,
    inliningId,
    scriptOffset: Number.isInteger(scriptOffset) ? scriptOffset : -1,
    kind: f[6]!,
    // The reason is the last field; should V8 ever leave a comma in it unescaped, keep it whole.
    reason: unescapeUtf8Bytes(f.slice(8).join(',')),
    rawPosition,
    ...parseDeoptPosition(rawPosition),
  };
}
