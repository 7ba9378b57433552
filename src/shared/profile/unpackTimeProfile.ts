/**
 * Reads a packed TimeProfile back (see PackedArrays): base64, raw DEFLATE through the platform's
 * DecompressionStream (browsers, Node 18+), LEB128 varints. A profile that is not packed comes back
 * as it is. Data that does not decode is an error with one line of reason.
 */
import { PACKED_ARRAYS, type TimeProfile } from '../model/timeProfile';

export async function unpackTimeProfile(profile: TimeProfile): Promise<TimeProfile> {
  const packed = profile.packed;
  if (!packed) return profile;
  if (packed.encoding !== 'leb128+deflate-raw+base64' || typeof packed.data !== 'string') throw new Error(`the CPU timeline is packed as ${String(packed.encoding)}, which this page cannot read`);
  const raw = Uint8Array.from(atob(packed.data), (c) => c.charCodeAt(0));
  const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let at = 0;
  const get = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (at >= bytes.length) throw new Error('the CPU timeline data ends early');
      const b = bytes[at++]!;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
      shift += 7;
      if (shift > 35) throw new Error('the CPU timeline data is not well formed');
    }
  };
  const out: TimeProfile = { ...profile };
  delete out.packed;
  for (const name of PACKED_ARRAYS) {
    const length = get();
    if (length > bytes.length) throw new Error('the CPU timeline data is not well formed');
    const shift = name === 'nodeParent' ? 1 : 0;
    const values = new Array<number>(length);
    for (let i = 0; i < length; i++) values[i] = get() - shift;
    out[name] = values;
  }
  return out;
}
