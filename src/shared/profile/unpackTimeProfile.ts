/**
 * Reads a packed TimeProfile back (see PackedArrays): base64, LEB128 varints. In two steps, so the
 * page can draw the flame graph before the bulk is decoded: `unpackTimeProfileHead` gives the
 * functions, the nodes and each node's self time, with the spans still to come; `unpackSpans` then
 * puts the spans in. `unpackTimeProfile` does both. A profile that is not packed comes back as it
 * is. Data that does not decode is an error with one line of reason.
 */
import { PACKED_ARRAYS, PACKED_SPANS, type PackedArrayName, type TimeProfile } from '../model/timeProfile';

/** The whole profile, spans included. */
export function unpackTimeProfile(profile: TimeProfile): TimeProfile {
  return unpackSpans(unpackTimeProfileHead(profile));
}

/**
 * The functions, the nodes and each node's self time (`nodeSelfUs`); the spans are empty and the
 * profile keeps `packed` (without `data`) until `unpackSpans`.
 */
export function unpackTimeProfileHead(profile: TimeProfile): TimeProfile {
  const packed = profile.packed;
  if (!packed || packed.data === '') return profile;
  checkEncoding(packed);
  const out: TimeProfile = { ...profile, packed: { ...packed, data: '' } };
  readArrays(packed.data, PACKED_ARRAYS, out);
  return out;
}

/** The profile with its spans decoded and nothing left packed (the same object when there was nothing to do). */
export function unpackSpans(profile: TimeProfile): TimeProfile {
  const packed = profile.packed;
  if (!packed) return profile;
  // An exported report's page reads them from their element first (webview/report/main.ts).
  if (packed.spansIn && packed.spans === '') throw new Error(`the samples in time order are missing (element ${packed.spansIn.id} was not read)`);
  const out = packed.data === '' ? { ...profile } : unpackTimeProfileHead(profile);
  checkEncoding(packed);
  readArrays(packed.spans, PACKED_SPANS, out);
  delete out.packed;
  return out;
}

/** How many spans a profile has, read from the start of its packed spans (their first varint); 0 when it cannot be read. */
export function packedSpanCount(profile: TimeProfile): number {
  if (profile.packed?.spansIn) return profile.packed.spansIn.count;
  const spans = profile.packed?.spans;
  if (typeof spans !== 'string') return profile.spanNode.length;
  // Twelve base64 characters: nine bytes, more than the longest varint.
  let bytes: Uint8Array;
  try {
    bytes = bytesOfBase64(spans.slice(0, 12));
  } catch {
    return 0;
  }
  let value = 0;
  let scale = 1;
  for (const b of bytes) {
    value += (b & 0x7f) * scale;
    if (b < 0x80) return value;
    scale *= 128;
  }
  return 0;
}

function checkEncoding(packed: NonNullable<TimeProfile['packed']>): void {
  if (packed.encoding !== 'leb128+base64' || typeof packed.data !== 'string' || typeof packed.spans !== 'string') {
    throw new Error(`the CPU timeline is packed as ${String(packed.encoding)}, which this page cannot read`);
  }
}

const bad = (why: string) => new Error(`the CPU timeline data ${why}`);

/** Decodes `names`' arrays from `text` into `out`. */
function readArrays(text: string, names: readonly PackedArrayName[], out: TimeProfile): void {
  const bytes = bytesOfBase64(text);
  const end = bytes.length;
  let at = 0;
  for (const name of names) {
    // A report packed before the first paint's tree had one: it ends here.
    if (name === 'firstTree' && at === end) break;
    const { value: length, next } = varintAt(bytes, at);
    at = next;
    if (length > end) throw bad('is not well formed');
    const values = new Float64Array(length);
    at = decodeVarints(bytes, at, values, name === 'nodeParent' ? 1 : 0);
    // No first paint's tree (a small profile): none, not an empty one.
    if (name === 'firstTree' && length === 0) continue;
    // The function table stays plain arrays (thousands); the nodes, the drawn tree and the spans are
    // typed (hundreds of thousands, millions): filled without a copy, a third of the decoding.
    (out as unknown as Record<PackedArrayName, ArrayLike<number>>)[name] = FUNCTION_ARRAYS.has(name) ? Array.from(values) : values;
  }
}

const FUNCTION_ARRAYS: ReadonlySet<PackedArrayName> = new Set(['fnName', 'fnUrl', 'fnLine', 'fnColumn', 'fnCategory']);

/** `values.length` varints from `bytes` at `at`, each less `shift`, into `values`; returns where they end. */
function decodeVarints(bytes: Uint8Array, at: number, values: Float64Array, shift: number): number {
  const end = bytes.length;
  const length = values.length;
  for (let i = 0; i < length; i++) {
    // Most values take one byte (a node's parent, a line, a self time of 0) or two.
    const b0 = at < end ? bytes[at]! : 0x80;
    if (b0 < 0x80) {
      values[i] = b0 - shift;
      at++;
      continue;
    }
    const b1 = at + 1 < end ? bytes[at + 1]! : 0x80;
    if (b1 < 0x80) {
      values[i] = ((b0 & 0x7f) | (b1 << 7)) - shift;
      at += 2;
      continue;
    }
    const { value, next } = varintAt(bytes, at);
    values[i] = value - shift;
    at = next;
  }
  return at;
}

/** The LEB128 varint (up to 56 bits) at `bytes[at]`, and where the next one starts. */
function varintAt(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (at >= bytes.length) throw bad('ends early');
    const b = bytes[at++]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return { value, next: at };
    scale *= 128;
    if (scale > 2 ** 56) throw bad('is not well formed');
  }
}

/** The platform's own base64 decoder where it has one (Chromium 140+, Node 25+), else atob and a loop. */
function bytesOfBase64(text: string): Uint8Array {
  const fromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array }).fromBase64;
  let binary: string;
  try {
    if (fromBase64) return fromBase64.call(Uint8Array, text);
    binary = atob(text);
  } catch {
    throw bad('is not base64');
  }
  // A plain loop: Uint8Array.from with a map callback is ~40× slower on megabytes.
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
