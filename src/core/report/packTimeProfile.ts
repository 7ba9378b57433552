/**
 * Packs a TimeProfile's number arrays for the page (see PackedArrays in shared/model/timeProfile.ts):
 * LEB128 varints, base64, in two parts: what the flame graph needs (with each node's self time,
 * computed here from the spans), and the spans; and the flame graph as the page first draws it.
 */
import { PACKED_ARRAYS, PACKED_SPANS, type PackedArrayName, type TimeProfile } from '../../shared/model/timeProfile';
import { ProfileIndex } from '../../shared/profile/profileIndex';
import { drawnTreeCode } from '../../shared/profile/profileTrees';
import { DRAW_MIN_SHARE, FIRST_PAINT_SHARE } from '../../shared/profile/pruneForDrawing';

/** `firstTreeFromFrames`: see FIRST_TREE_FROM_FRAMES (tests give a smaller one). */
export function packTimeProfile(profile: TimeProfile, firstTreeFromFrames = FIRST_TREE_FROM_FRAMES): TimeProfile {
  if (profile.packed) return profile;
  const index = new ProfileIndex(profile);
  const self = index.selfUs(null);
  const drawnTree = drawnTreeCode(index, self, DRAW_MIN_SHARE);
  const withSelf: TimeProfile = { ...profile, nodeSelfUs: Array.from(self), drawnTree, ...firstPaintTree(index, self, drawnTree, firstTreeFromFrames) };
  const out: TimeProfile = { ...profile };
  for (const name of PACKED_SPANS) out[name] = [];
  for (const name of PACKED_ARRAYS) if (name !== 'nodeSelfUs' && name !== 'drawnTree' && name !== 'firstTree') out[name] = [];
  delete out.nodeSelfUs;
  delete out.drawnTree;
  delete out.firstTree;
  out.packed = { encoding: 'leb128+base64', data: varints(withSelf, PACKED_ARRAYS), spans: varints(profile, PACKED_SPANS) };
  return out;
}

/**
 * The first paint's coarser tree, when the whole drawn tree is big (thousands of frames, tens of ms
 * to build and draw before anything shows) and the coarse one is at most half of it; else none, and
 * the page paints the whole one at once.
 */
function firstPaintTree(index: ProfileIndex, self: Float64Array, drawnTree: number[], fromFrames: number): Pick<TimeProfile, 'firstTree'> {
  if (drawnTree.length < 2 * fromFrames) return {};
  const firstTree = drawnTreeCode(index, self, FIRST_PAINT_SHARE);
  return firstTree.length * 2 <= drawnTree.length ? { firstTree } : {};
}

/** Frames of the whole drawn tree from which a first, coarser one is worth sending. */
const FIRST_TREE_FROM_FRAMES = 4_000;

function varints(profile: TimeProfile, names: readonly PackedArrayName[]): string {
  // One kind of array in the loops below (plain arrays and typed spans made them megamorphic: a
  // third of the packing's time on 1.4 million spans).
  const arrays = names.map((name) => asFloat64(profile[name] ?? []));
  let size = 0;
  for (const [k, values] of arrays.entries()) size += varintBytes(values.length) + byteCount(values, names[k] === 'nodeParent' ? 1 : 0);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  const put = (value: number) => {
    let v = value >>> 0;
    if (v !== value) {
      if (!(Number.isSafeInteger(value) && value >= 0)) throw new Error(`cannot pack ${value}: not a whole number of 0 or more`);
      for (v = value; v >= 0x80; v = Math.floor(v / 0x80)) bytes[at++] = (v % 0x80) | 0x80;
      bytes[at++] = v;
      return;
    }
    while (v >= 0x80) {
      bytes[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    bytes[at++] = v;
  };
  names.forEach((name, k) => {
    const values = arrays[k]!;
    put(values.length);
    const shift = name === 'nodeParent' ? 1 : 0;
    // Values under 128 (most nodes' self times and parents, many deltas) without the general call.
    for (let i = 0; i < values.length; i++) {
      const v = values[i]! + shift;
      if (v >= 0 && v < 0x80 && (v | 0) === v) bytes[at++] = v;
      else put(v);
    }
  });
  return bytes.toString('base64', 0, at);
}

function asFloat64(values: ArrayLike<number>): Float64Array {
  return values instanceof Float64Array ? values : Float64Array.from(values);
}

/** The bytes of `values` as varints (a value that cannot be packed is found by `put` later). */
function byteCount(values: Float64Array, shift: number): number {
  let size = 0;
  for (let i = 0; i < values.length; i++) size += varintBytes(values[i]! + shift);
  return size;
}

function varintBytes(v: number): number {
  if (v < 0x80) return 1;
  if (v < 0x4000) return 2;
  if (v < 0x200000) return 3;
  if (v < 0x10000000) return 4;
  // 7 bits a byte up to 2^53 (and 8 bytes for anything `put` refuses anyway).
  let n = 4;
  for (let rest = Math.floor(v / 0x10000000); rest >= 1 && n < 8; rest = Math.floor(rest / 0x80)) n++;
  return n;
}
