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
  const arrays = names.map((name) => profile[name] ?? []);
  let size = 0;
  // Up to 8 bytes a value: a node's self time over a long profile can pass 2^32 µs (71 minutes).
  for (const values of arrays) size += 8 * (values.length + 1);
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
    for (let i = 0; i < values.length; i++) put(values[i]! + shift);
  });
  return bytes.toString('base64', 0, at);
}
