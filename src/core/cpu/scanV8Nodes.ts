import { Buffer } from 'node:buffer';
import { CallFrameTable } from './callFrameTable';
import type { CpuPositionTick, CpuProfileNode } from './cpuProfileFormat';
import type { FlatTree } from './flatTree';
import { NodeIdIndex } from './nodeIdIndex';
import { NodeLinks } from './nodeLinks';
import { NO_POSITION_TICKS } from './readPositionTicks';
import { droppedTicksWarning, duplicateId, malformedCallFrame } from './nodeProblems';
import { CharCode } from '../util/charCodes';
const { OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET, QUOTE, BACKSLASH, COMMA, MINUS, ZERO } = CharCode;

/*
 * Fast path for the `nodes` of a big profile written by V8 itself (Node's `--cpu-prof`, DevTools):
 * the exact compact layout below is read straight from the bytes, so `JSON.parse` never builds the
 * hundreds of thousands of little objects and arrays (nodes, call frames, children, ticks) that the
 * model would only copy out of again. Only the *distinct* call frames go through `JSON.parse`, keyed
 * by their raw text: V8 repeats a frame once per call path (90k nodes, 11k frames in the benchmark).
 *
 *   {"nodes":[{"id":1,"callFrame":{…},"hitCount":0,"children":[2,3],"positionTicks":[{"line":5,"ticks":2}]},…],…
 *
 * (`children` and `positionTicks` are optional and come in either order: Node writes children
 * first, Chrome 65 wrote ticks first.) Anything else — whitespace, other keys (js-debug's
 * `locationId`), non-ASCII text — returns null and the caller uses `JSON.parse`, so this path never
 * has to decide what unusual input means. Everything it accepts is valid JSON: the literals are
 * matched exactly, integers in JSON syntax, and call frames and the remaining members are parsed
 * by `JSON.parse` itself.
 */

export interface ScannedNodes {
  flat: FlatTree;
  /** The profile's other top-level members before the cut (startTime, endTime, …). */
  members: Record<string, unknown>;
}

/** Reads the nodes from `text[0, end)`, which must be `{"nodes":[…]` followed by other members. */
export function scanV8Nodes(text: string, end: number, sourceName: string, warnings: string[]): ScannedNodes | null {
  // Byte offsets equal string offsets only for ASCII. With 4 bytes to spare, a partial write cannot
  // stop at exactly `end`, so `end` bytes written means every character was one byte.
  const buffer = Buffer.allocUnsafe(end + 4);
  if (buffer.write(text.slice(0, end), 0, 'utf8') !== end) return null;
  buffer[end] = 0; // stops every loop below
  return scanNodeBytes(buffer.subarray(0, end + 1), end, (from, to) => text.slice(from, to), sourceName, warnings);
}

/**
 * The same from a file's bytes, all ASCII, read where they are: `bytes[end]` is lent for the zero
 * byte that stops the loops, and put back.
 */
export function scanV8NodesInBytes(bytes: Buffer, end: number, sourceName: string, warnings: string[]): ScannedNodes | null {
  if (end >= bytes.length) return null;
  const lent = bytes[end]!;
  bytes[end] = 0;
  try {
    return scanNodeBytes(bytes.subarray(0, end + 1), end, (from, to) => bytes.toString('latin1', from, to), sourceName, warnings);
  } finally {
    bytes[end] = lent;
  }
}

/** `bytes[0, end)` with a zero byte at `end`; `textOf` gives the text of a range of them. */
function scanNodeBytes(bytes: Uint8Array, end: number, textOf: (from: number, to: number) => string, sourceName: string, warnings: string[]): ScannedNodes | null {

  const s = new ByteScanner(bytes);
  if (!s.literal(NODES_OPEN) || bytes[s.at] === CLOSE_BRACKET) return null;
  const ids: number[] = [];
  const frameKeys: number[] = [];
  const ticks: Array<readonly CpuPositionTick[]> = [];
  const childOwners: number[] = [];
  const childIds: number[] = [];
  const frames = new FrameTexts(textOf, bytes);
  let dropped = 0;

  for (;;) {
    const node = ids.length;
    if (!s.literal(ID)) return null;
    const id = s.integer();
    if (Number.isNaN(id) || !s.literal(CALL_FRAME)) return null;
    const frameStart = s.at;
    if (!s.flatObject()) return null;
    const key = frames.key(frameStart, s.at, s.hash);
    if (!s.literal(HIT_COUNT) || Number.isNaN(s.integer())) return null;

    let nodeTicks: readonly CpuPositionTick[] = NO_POSITION_TICKS;
    let seenChildren = false;
    let seenTicks = false;
    while (bytes[s.at] === COMMA) {
      if (!seenChildren && s.literal(CHILDREN)) {
        seenChildren = true;
        if (bytes[s.at] === CLOSE_BRACKET) s.at++;
        else {
          do {
            const child = s.integer();
            if (Number.isNaN(child)) return null;
            childOwners.push(node);
            childIds.push(child);
          } while (s.comma());
          if (!s.closeBracket()) return null;
        }
      } else if (!seenTicks && s.literal(POSITION_TICKS)) {
        seenTicks = true;
        if (bytes[s.at] === CLOSE_BRACKET) s.at++;
        else {
          const list: CpuPositionTick[] = [];
          do {
            if (!s.literal(TICK_LINE)) return null;
            const line = s.integer();
            if (Number.isNaN(line) || !s.literal(TICK_TICKS)) return null;
            const count = s.integer();
            if (Number.isNaN(count) || bytes[s.at++] !== CLOSE_BRACE) return null;
            // The same rule as readPositionTicks: 1-based lines, no negative counts.
            if (line >= 1 && count >= 0) list.push({ line, ticks: count });
            else dropped++;
          } while (s.comma());
          if (!s.closeBracket()) return null;
          if (list.length > 0) nodeTicks = list;
        }
      } else return null;
    }
    if (bytes[s.at++] !== CLOSE_BRACE) return null;
    ids.push(id);
    frameKeys.push(key);
    ticks.push(nodeTicks);
    if (!s.comma()) break;
  }
  if (!s.closeBracket()) return null;

  // The rest of the object before the cut: `,"startTime":…,"endTime":…` or nothing.
  let members: unknown;
  let parsedFrames: unknown;
  try {
    members = s.at === end ? {} : bytes[s.at] === COMMA ? JSON.parse(`{${textOf(s.at + 1, end)}}`) : null;
    parsedFrames = JSON.parse(`[${frames.texts.join(',')}]`);
  } catch {
    return null;
  }
  if (typeof members !== 'object' || members === null || Array.isArray(members) || 'nodes' in members) return null;
  return { flat: buildFlatTree(), members: members as Record<string, unknown> };

  function buildFlatTree(): FlatTree {
    const count = ids.length;
    const table = new CallFrameTable();
    const frameOfKey = (parsedFrames as unknown[]).map((raw) => table.read(raw));
    let maxId = -1;
    for (let i = 0; i < count; i++) if (ids[i]! > maxId) maxId = ids[i]!;
    const idIndex = new NodeIdIndex(maxId, count);
    const nodes: CpuProfileNode[] = [];
    const nodeFrames = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      const frame = frameOfKey[frameKeys[i]!]!;
      if (frame < 0) throw malformedCallFrame(sourceName, id);
      if (!idIndex.add(id, i)) throw duplicateId(sourceName, id);
      nodeFrames[i] = frame;
      nodes.push({ id, callFrame: table.frames[frame]!, positionTicks: ticks[i]! });
    }
    const links = new NodeLinks(count, idIndex);
    for (let k = 0; k < childIds.length; k++) links.addChildId(childOwners[k]!, childIds[k]);
    links.warnings(warnings);
    if (dropped > 0) warnings.push(droppedTicksWarning(dropped));
    return { nodes, frames: table.frames, nodeFrames, ids: idIndex, ...links.edges() };
  }
}

const ascii = (literal: string): Uint8Array => Uint8Array.from(literal, (c) => c.charCodeAt(0));
const NODES_OPEN = ascii('{"nodes":[');
const ID = ascii('{"id":');
const CALL_FRAME = ascii(',"callFrame":');
const HIT_COUNT = ascii(',"hitCount":');
const CHILDREN = ascii(',"children":[');
const POSITION_TICKS = ascii(',"positionTicks":[');
const TICK_LINE = ascii('{"line":');
const TICK_TICKS = ascii(',"ticks":');

/** Beyond 2^53 integers are not exact; ids and counts are far below, so longer numbers are refused. */
const MAX_DIGITS = 15;

/** A position in zero-terminated ASCII bytes, with the few strict JSON pieces the layout needs. */
class ByteScanner {
  at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  literal(expected: Uint8Array): boolean {
    const { bytes } = this;
    const start = this.at;
    for (let k = 0; k < expected.length; k++) if (bytes[start + k] !== expected[k]) return false;
    this.at = start + expected.length;
    return true;
  }

  /** A JSON integer (no leading zeros, no fraction or exponent); NaN, not moving on, if there is none. */
  integer(): number {
    const { bytes } = this;
    let i = this.at;
    const negative = bytes[i] === MINUS;
    if (negative) i++;
    const start = i;
    let value = 0;
    let digit: number;
    // `(c - '0') >>> 0` is a digit only for '0'…'9'; the zero byte after the text ends every run.
    while ((digit = (bytes[i]! - ZERO) >>> 0) <= 9) {
      value = value * 10 + digit;
      i++;
    }
    const length = i - start;
    if (length === 0 || length > MAX_DIGITS || (length > 1 && bytes[start] === ZERO)) return NaN;
    const next = bytes[i]!;
    if (next === 0x2e || next === 0x65 || next === 0x45) return NaN; // '.', 'e', 'E': not an integer
    this.at = i;
    return negative ? -value : value;
  }

  comma(): boolean {
    if (this.bytes[this.at] !== COMMA) return false;
    this.at++;
    return true;
  }

  closeBracket(): boolean {
    if (this.bytes[this.at] !== CLOSE_BRACKET) return false;
    this.at++;
    return true;
  }

  /** FNV-1a hash of the bytes of the last `flatObject`, for spotting repeated call frames. */
  hash = 0;

  /**
   * Skips a `{…}` without nested objects or arrays (a call frame), honouring strings; its contents
   * are checked later by `JSON.parse`.
   */
  flatObject(): boolean {
    const { bytes } = this;
    let i = this.at;
    if (bytes[i] !== OPEN_BRACE) return false;
    const last = bytes.length - 1; // the zero byte
    let hash = 0x811c9dc5;
    for (i++; i < last; i++) {
      const c = bytes[i]!;
      hash = Math.imul(hash ^ c, 0x01000193);
      if (c === QUOTE) {
        for (i++; i < last && bytes[i] !== QUOTE; i++) {
          hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
          if (bytes[i] === BACKSLASH) hash = Math.imul(hash ^ bytes[++i]!, 0x01000193);
        }
        if (i >= last) return false;
      } else if (c === CLOSE_BRACE) {
        this.at = i + 1;
        this.hash = hash >>> 2; // a small integer: a cheap Map key
        return true;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET || c === 0) return false;
    }
    return false;
  }
}

/**
 * The distinct call-frame texts, found by hash and confirmed byte by byte: comparing raw bytes just
 * scanned is far cheaper than hashing a fresh 100-character string per node for a string-keyed Map.
 * The first occurrence of each frame is copied to a compact store, so the comparison reads memory
 * that stays in cache instead of a random spot of a 20 MB text.
 */
class FrameTexts {
  readonly texts: string[] = [];
  private readonly offsets: number[] = [0];
  private store = new Uint8Array(1 << 16);
  private storeView = new DataView(this.store.buffer);
  private readonly view: DataView;
  private readonly byHash = new Map<number, number>();
  /** Frames whose hash was taken by a different frame (rare): keyed by their text. */
  private readonly collided = new Map<string, number>();

  constructor(
    private readonly textOf: (from: number, to: number) => string,
    private readonly bytes: Uint8Array,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The index of the frame text `[start, end)`, added if new. */
  key(start: number, end: number, hash: number): number {
    const known = this.byHash.get(hash);
    if (known === undefined) {
      this.byHash.set(hash, this.texts.length);
      return this.add(start, end);
    }
    if (this.sameBytes(known, start, end)) return known;
    const text = this.textOf(start, end);
    let other = this.collided.get(text);
    if (other === undefined) this.collided.set(text, (other = this.add(start, end)));
    return other;
  }

  private add(start: number, end: number): number {
    this.texts.push(this.textOf(start, end));
    const at = this.offsets[this.offsets.length - 1]!;
    if (at + (end - start) > this.store.length) {
      const grown = new Uint8Array(Math.max(this.store.length * 2, at + (end - start)));
      grown.set(this.store);
      this.store = grown;
      this.storeView = new DataView(grown.buffer);
    }
    this.store.set(this.bytes.subarray(start, end), at);
    this.offsets.push(at + (end - start));
    return this.texts.length - 1;
  }

  private sameBytes(index: number, start: number, end: number): boolean {
    const from = this.offsets[index]!;
    const length = end - start;
    if (this.offsets[index + 1]! - from !== length) return false;
    const { view, storeView } = this;
    let k = 0;
    for (; k + 4 <= length; k += 4) if (storeView.getUint32(from + k) !== view.getUint32(start + k)) return false;
    for (; k < length; k++) if (this.store[from + k] !== this.bytes[start + k]) return false;
    return true;
  }
}
