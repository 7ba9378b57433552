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
  // The platform's own base64 decoder where it has one (Chromium 140+), else atob and a loop.
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  const raw = fromBase64 ? fromBase64.call(Uint8Array, packed.data) : bytesOf(atob(packed.data));
  const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  const end = bytes.length;
  let at = 0;
  const bad = (why: string) => new Error(`the CPU timeline data ${why}`);
  /** One LEB128 varint (up to 35 bits); one loop inlined below for the arrays, which hold millions. */
  const get = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= end) throw bad('ends early');
      const b = bytes[at++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
      if (scale > 2 ** 35) throw bad('is not well formed');
    }
  };
  const out: TimeProfile = { ...profile };
  delete out.packed;
  for (const name of PACKED_ARRAYS) {
    const length = get();
    if (length > end) throw bad('is not well formed');
    const shift = name === 'nodeParent' ? 1 : 0;
    const values = new Array<number>(length);
    for (let i = 0; i < length; i++) {
      let value = 0;
      let scale = 1;
      for (;;) {
        if (at >= end) throw bad('ends early');
        const b = bytes[at++]!;
        value += (b & 0x7f) * scale;
        if (b < 0x80) break;
        scale *= 128;
        if (scale > 2 ** 35) throw bad('is not well formed');
      }
      values[i] = value - shift;
    }
    out[name] = values;
  }
  return out;
}

/** A binary string's bytes, in a plain loop (Uint8Array.from with a map callback is ~40× slower on megabytes). */
function bytesOf(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}
