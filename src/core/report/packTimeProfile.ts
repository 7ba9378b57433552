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
  // One kind of array in the loop below (plain arrays and typed spans made it megamorphic: a third
  // of the packing's time on 1.4 million spans).
  const arrays = names.map((name) => asFloat64(profile[name] ?? []));
  // Room for the longest encoding of every value (8 bytes up to 2^53) instead of a pass that counts
  // the bytes: the buffer is not zeroed, so only the pages written are ever touched.
  let room = 0;
  for (const values of arrays) room += 8 * (values.length + 1);
  const bytes = Buffer.allocUnsafe(room);
  let at = 0;
  names.forEach((name, k) => {
    const values = arrays[k]!;
    at = writeVarint(bytes, at, values.length);
    at = writeVarints(bytes, at, values, name === 'nodeParent' ? 1 : 0);
  });
  return bytes.toString('base64', 0, at);
}

/** `values` (each plus `shift`) as LEB128 at `bytes[at]`; returns the end. `at` stays a local: in a closure it was a context slot written millions of times. */
function writeVarints(bytes: Uint8Array, at: number, values: Float64Array, shift: number): number {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]! + shift;
    // Values under 128 (most nodes' self times and parents, many deltas) without the general call.
    if (v >= 0 && v < 0x80 && (v | 0) === v) bytes[at++] = v;
    else at = writeVarint(bytes, at, v);
  }
  return at;
}

function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  let v = value >>> 0;
  if (v !== value) {
    if (!(Number.isSafeInteger(value) && value >= 0)) throw new Error(`cannot pack ${value}: not a whole number of 0 or more`);
    for (v = value; v >= 0x80; v = Math.floor(v / 0x80)) bytes[at++] = (v % 0x80) | 0x80;
    bytes[at++] = v;
    return at;
  }
  while (v >= 0x80) {
    bytes[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  bytes[at++] = v;
  return at;
}

function asFloat64(values: ArrayLike<number>): Float64Array {
  return values instanceof Float64Array ? values : Float64Array.from(values);
}
