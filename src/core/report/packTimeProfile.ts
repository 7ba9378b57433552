/**
 * Packs a TimeProfile's number arrays for an exported report (see PackedArrays in
 * shared/model/timeProfile.ts): LEB128 varints, raw DEFLATE, base64.
 */
import { deflateRawSync } from 'node:zlib';
import { PACKED_ARRAYS, type TimeProfile } from '../../shared/model/timeProfile';

export function packTimeProfile(profile: TimeProfile): TimeProfile {
  if (profile.packed) return profile;
  let size = 0;
  for (const name of PACKED_ARRAYS) size += 5 * (profile[name].length + 1);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  const put = (value: number) => {
    let v = value >>> 0;
    if (v !== value) throw new Error(`cannot pack ${value}: not an unsigned 32-bit integer`);
    while (v >= 0x80) {
      bytes[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    bytes[at++] = v;
  };
  const out: TimeProfile = { ...profile };
  for (const name of PACKED_ARRAYS) {
    const values = profile[name];
    put(values.length);
    const shift = name === 'nodeParent' ? 1 : 0;
    for (let i = 0; i < values.length; i++) put(values[i]! + shift);
    out[name] = [];
  }
  out.packed = { encoding: 'leb128+deflate-raw+base64', data: deflateRawSync(bytes.subarray(0, at), { level: 4 }).toString('base64') };
  return out;
}
