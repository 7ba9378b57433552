/**
 * Packs a TimeProfile's number arrays for the page (see PackedArrays in shared/model/timeProfile.ts):
 * LEB128 varints, base64, in two parts: what the flame graph needs (with each node's self time,
 * computed here from the spans), and the spans; and the flame graph as the page first draws it.
 */
import { PACKED_ARRAYS, PACKED_SPANS, type PackedArrayName, type TimeProfile } from '../../shared/model/timeProfile';
import { ProfileIndex } from '../../shared/profile/profileIndex';
import { drawnTreeCode } from '../../shared/profile/profileTrees';
import { DRAW_MIN_SHARE } from '../../shared/profile/pruneForDrawing';

export function packTimeProfile(profile: TimeProfile): TimeProfile {
  if (profile.packed) return profile;
  const index = new ProfileIndex(profile);
  const self = index.selfUs(null);
  const withSelf: TimeProfile = { ...profile, nodeSelfUs: Array.from(self), drawnTree: drawnTreeCode(index, self, DRAW_MIN_SHARE) };
  const out: TimeProfile = { ...profile };
  for (const name of PACKED_SPANS) out[name] = [];
  for (const name of PACKED_ARRAYS) if (name !== 'nodeSelfUs' && name !== 'drawnTree') out[name] = [];
  delete out.nodeSelfUs;
  delete out.drawnTree;
  out.packed = { encoding: 'leb128+base64', data: varints(withSelf, PACKED_ARRAYS), spans: varints(profile, PACKED_SPANS) };
  return out;
}

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
