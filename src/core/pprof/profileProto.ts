/**
 * profile.proto (github.com/google/pprof/proto/profile.proto) decoded with limits that are checked
 * while decoding, field by field, so a small hostile file is refused after a few MB of work rather
 * than after minutes and gigabytes: 204 KB of gzip can hold 200 MiB of empty strings (100 million
 * of them), and gzip itself is decompressed as a stream, never whole. Nesting is bounded by the
 * schema (Profile → Location → Line at most): fields this decoder does not know are skipped, not
 * descended into. Samples are kept in flat arrays, not one object each.
 *
 * Replaces `pprof-format`'s decoder, which reads multi-byte tags (field numbers ≥ 16, which newer
 * producers and extensions may write) wrongly and negative int64 as 1.8e19; its encoder is kept
 * (pprofBuilder.ts): every field of profile.proto is numbered below 16, so its one-byte tags are right.
 */
import { Buffer } from 'node:buffer';
import { zlib } from '../util/lazyBuiltins';
import { ProtoError, ProtoReader, WIRE } from './protoReader';

const MiB = 1024 * 1024;

/** The most of each thing a pprof file may hold; real profiles of big services stay far below. */
export const PPROF_LIMITS = {
  /** Bytes after gzip: a big service's profile is tens of MB. */
  decompressedBytes: 512 * MiB,
  /** Top-level fields of any kind (each sample, location, function, string is one). */
  fields: 16_000_000,
  /** One top-level field (a sample, a location, a string). */
  fieldBytes: 64 * MiB,
  strings: 4_000_000,
  stringBytes: 128 * MiB,
  samples: 2_000_000,
  /** Location ids over all samples. */
  stackEntries: 16_000_000,
  /** Location ids in one sample. */
  stackDepth: 16_384,
  valuesPerSample: 64,
  sampleTypes: 64,
  locations: 2_000_000,
  /** Line entries over all locations (inlined frames). */
  lines: 4_000_000,
  functions: 2_000_000,
  mappings: 1_000_000,
  comments: 100_000,
} as const;

/** A limit passed or a malformed file: one line, without the file's name (the caller adds it). */
export class PprofLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PprofLimitError';
  }
}

export interface PprofValueTypeIds {
  type: number;
  unit: number;
}

export interface PprofLineEntry {
  functionId: number;
  /** 1-based; 0 when unknown (negative or impossible values are read as 0, with a warning). */
  line: number;
  column: number;
}

export interface PprofLocationEntry {
  id: number;
  address: number;
  /** Leaf-most first: the last one is the caller the others were inlined into. */
  lines: PprofLineEntry[];
}

export interface PprofFunctionEntry {
  id: number;
  name: number;
  systemName: number;
  filename: number;
  startLine: number;
}

export interface DecodedPprof {
  sampleTypes: PprofValueTypeIds[];
  sampleCount: number;
  /** Sample i's location ids, leaf first: locationIds[locStart[i]] up to locStart[i + 1]. */
  locStart: number[];
  locationIds: number[];
  /** Sample i's values: values[valStart[i]] up to valStart[i + 1]; negative ones are read as 0 (counted in warnings). */
  valStart: number[];
  values: number[];
  locations: PprofLocationEntry[];
  functions: PprofFunctionEntry[];
  strings: string[];
  periodType: PprofValueTypeIds | null;
  period: number;
  defaultSampleType: number;
  comments: number[];
  timeNanos: number;
  durationNanos: number;
  /** What was put right while decoding, one line each. */
  warnings: string[];
}

/** The largest integer a double holds exactly: a sample value beyond it is no profile's. */
const EXACT = Number.MAX_SAFE_INTEGER;

function fmtCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** Decodes the fields of one Profile message; fed top-level field by top-level field. */
class ProfileDecoder {
  readonly out: DecodedPprof = {
    sampleTypes: [],
    sampleCount: 0,
    locStart: [0],
    locationIds: [],
    valStart: [0],
    values: [],
    locations: [],
    functions: [],
    strings: [],
    periodType: null,
    period: 0,
    defaultSampleType: 0,
    comments: [],
    timeNanos: 0,
    durationNanos: 0,
    warnings: [],
  };
  private fields = 0;
  private stringBytes = 0;
  private lines = 0;
  private mappings = 0;
  private negativeValues = 0;
  private negativePositions = 0;
  private inexactIds = 0;

  /** The field whose tag `r` has just read; `r` ends at the field's end. */
  field(field: number, wire: number, r: ProtoReader): void {
    if (++this.fields > PPROF_LIMITS.fields) this.over(`more than ${fmtCount(PPROF_LIMITS.fields)} fields`);
    const out = this.out;
    switch (field) {
      case 1:
        if (out.sampleTypes.length >= PPROF_LIMITS.sampleTypes) this.over(`more than ${PPROF_LIMITS.sampleTypes} sample types`);
        out.sampleTypes.push(this.valueType(this.message(wire, r)));
        return;
      case 2:
        this.sample(this.message(wire, r));
        return;
      case 3:
        if (++this.mappings > PPROF_LIMITS.mappings) this.over(`more than ${fmtCount(PPROF_LIMITS.mappings)} mappings`);
        this.message(wire, r); // V8 Lens reads no mappings (Node's code is not mapped from binaries)
        return;
      case 4:
        if (out.locations.length >= PPROF_LIMITS.locations) this.over(`more than ${fmtCount(PPROF_LIMITS.locations)} locations`);
        out.locations.push(this.location(this.message(wire, r)));
        return;
      case 5:
        if (out.functions.length >= PPROF_LIMITS.functions) this.over(`more than ${fmtCount(PPROF_LIMITS.functions)} functions`);
        out.functions.push(this.function(this.message(wire, r)));
        return;
      case 6: {
        if (out.strings.length >= PPROF_LIMITS.strings) this.over(`a string table of more than ${fmtCount(PPROF_LIMITS.strings)} strings`);
        const { start, end } = this.message(wire, r);
        this.stringBytes += end - start;
        if (this.stringBytes > PPROF_LIMITS.stringBytes) this.over(`a string table of more than ${PPROF_LIMITS.stringBytes / MiB} MB`);
        out.strings.push(Buffer.from(r.buf.buffer, r.buf.byteOffset + start, end - start).toString('utf8'));
        return;
      }
      case 9:
        out.timeNanos = this.scalar(wire, r);
        return;
      case 10:
        out.durationNanos = this.scalar(wire, r);
        return;
      case 11:
        out.periodType = this.valueType(this.message(wire, r));
        return;
      case 12:
        out.period = this.scalar(wire, r);
        return;
      case 13:
        r.repeated(wire, true, (v) => {
          if (out.comments.length >= PPROF_LIMITS.comments) this.over(`more than ${fmtCount(PPROF_LIMITS.comments)} comments`);
          out.comments.push(v);
        });
        return;
      case 14:
        out.defaultSampleType = this.scalar(wire, r);
        return;
      default:
        // drop_frames, keep_frames, doc_url, and numbers a newer profile.proto may add.
        r.skip(wire);
    }
  }

  finish(): DecodedPprof {
    const out = this.out;
    if (this.negativeValues > 0) out.warnings.push(`${fmtCount(this.negativeValues)} negative sample value${this.negativeValues === 1 ? ' was' : 's were'} read as 0 (no profiler writes them)`);
    if (this.negativePositions > 0) out.warnings.push(`${fmtCount(this.negativePositions)} negative or impossible line or column number${this.negativePositions === 1 ? ' was' : 's were'} read as unknown`);
    if (this.inexactIds > 0) out.warnings.push(`${fmtCount(this.inexactIds)} id${this.inexactIds === 1 ? ' is' : 's are'} beyond 2^53 and may be confused with others`);
    return out;
  }

  private over(what: string): never {
    throw new PprofLimitError(`it holds ${what}, past what V8 Lens reads from a profile`);
  }

  /** A sub-message's bounds (wire type 2). */
  private message(wire: number, r: ProtoReader): { start: number; end: number } {
    if (wire !== WIRE.bytes) throw new ProtoError(`a message field has wire type ${wire}`);
    return r.bytes();
  }

  private scalar(wire: number, r: ProtoReader): number {
    if (wire !== WIRE.varint) {
      r.skip(wire);
      return 0;
    }
    const v = r.int();
    return r.exact ? v : 0;
  }

  /** A 1-based position: negative or beyond 2^53 is unknown (0), counted for a warning. */
  private position(wire: number, r: ProtoReader): number {
    if (wire !== WIRE.varint) {
      r.skip(wire);
      return 0;
    }
    const v = r.int();
    if (v < 0 || !r.exact || v > 0x7fffffff) {
      this.negativePositions++;
      return 0;
    }
    return v;
  }

  /** A uint64 id or string index. */
  private id(wire: number, r: ProtoReader): number {
    if (wire !== WIRE.varint) {
      r.skip(wire);
      return 0;
    }
    const v = r.uint();
    if (!r.exact) this.inexactIds++;
    return v;
  }

  private valueType({ start, end }: { start: number; end: number }): PprofValueTypeIds {
    const r = this.sub(start, end);
    const t = { type: 0, unit: 0 };
    while (!r.done) {
      const { field, wire } = r.tag();
      if (field === 1) t.type = this.id(wire, r);
      else if (field === 2) t.unit = this.id(wire, r);
      else r.skip(wire);
    }
    return t;
  }

  private current: ProtoReader | null = null;

  /** A reader over part of the field being decoded. */
  private sub(start: number, end: number): ProtoReader {
    return new ProtoReader(this.current!.buf, start, end);
  }

  /** Sets the buffer sub-messages are read from (the top-level field's). */
  withField(r: ProtoReader, decode: () => void): void {
    this.current = r;
    try {
      decode();
    } finally {
      this.current = null;
    }
  }

  private sample({ start, end }: { start: number; end: number }): void {
    const out = this.out;
    if (out.sampleCount >= PPROF_LIMITS.samples) this.over(`more than ${fmtCount(PPROF_LIMITS.samples)} samples`);
    const r = this.sub(start, end);
    const locFrom = out.locationIds.length;
    const valFrom = out.values.length;
    while (!r.done) {
      const { field, wire } = r.tag();
      if (field === 1) {
        r.repeated(wire, false, (v, exact) => {
          if (out.locationIds.length - locFrom >= PPROF_LIMITS.stackDepth) this.over(`a stack deeper than ${fmtCount(PPROF_LIMITS.stackDepth)} frames`);
          if (out.locationIds.length >= PPROF_LIMITS.stackEntries) this.over(`more than ${fmtCount(PPROF_LIMITS.stackEntries)} frames over all samples`);
          if (!exact) this.inexactIds++;
          out.locationIds.push(v);
        });
      } else if (field === 2) {
        r.repeated(wire, true, (v, exact) => {
          if (out.values.length - valFrom >= PPROF_LIMITS.valuesPerSample) this.over(`a sample of more than ${PPROF_LIMITS.valuesPerSample} values`);
          if (!exact || v > EXACT) throw new PprofLimitError(`a sample value of ${v.toExponential(2)} is beyond any profile (more than 2^53)`);
          if (v < 0) {
            this.negativeValues++;
            v = 0;
          }
          out.values.push(v);
        });
      } else r.skip(wire); // labels: V8 Lens keeps none
    }
    out.sampleCount++;
    out.locStart.push(out.locationIds.length);
    out.valStart.push(out.values.length);
  }

  private location({ start, end }: { start: number; end: number }): PprofLocationEntry {
    const r = this.sub(start, end);
    const loc: PprofLocationEntry = { id: 0, address: 0, lines: [] };
    while (!r.done) {
      const { field, wire } = r.tag();
      if (field === 1) loc.id = this.id(wire, r);
      else if (field === 3) loc.address = this.id(wire, r);
      else if (field === 4) {
        if (++this.lines > PPROF_LIMITS.lines) this.over(`more than ${fmtCount(PPROF_LIMITS.lines)} lines in its locations`);
        loc.lines.push(this.line(this.message(wire, r)));
      } else r.skip(wire);
    }
    return loc;
  }

  private line({ start, end }: { start: number; end: number }): PprofLineEntry {
    const r = this.sub(start, end);
    const line: PprofLineEntry = { functionId: 0, line: 0, column: 0 };
    while (!r.done) {
      const { field, wire } = r.tag();
      if (field === 1) line.functionId = this.id(wire, r);
      else if (field === 2) line.line = this.position(wire, r);
      else if (field === 3) line.column = this.position(wire, r);
      else r.skip(wire);
    }
    return line;
  }

  private function({ start, end }: { start: number; end: number }): PprofFunctionEntry {
    const r = this.sub(start, end);
    const fn: PprofFunctionEntry = { id: 0, name: 0, systemName: 0, filename: 0, startLine: 0 };
    while (!r.done) {
      const { field, wire } = r.tag();
      if (field === 1) fn.id = this.id(wire, r);
      else if (field === 2) fn.name = this.id(wire, r);
      else if (field === 3) fn.systemName = this.id(wire, r);
      else if (field === 4) fn.filename = this.id(wire, r);
      else if (field === 5) fn.startLine = this.position(wire, r);
      else r.skip(wire);
    }
    return fn;
  }
}

/** Splits a byte stream into whole top-level fields, so a profile is decoded as it is decompressed. */
class TopLevelFields {
  private chunks: Buffer[] = [];
  private have = 0;
  private total = 0;

  constructor(private readonly decoder: ProfileDecoder) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.total > PPROF_LIMITS.decompressedBytes) throw new PprofLimitError(`it decompresses to more than ${PPROF_LIMITS.decompressedBytes / MiB} MB, past what V8 Lens reads from a profile`);
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.have += chunk.length;
    this.drain(false);
  }

  end(): void {
    this.drain(true);
  }

  private drain(final: boolean): void {
    while (this.have > 0) {
      this.gather(Math.min(20, this.have));
      const size = this.fieldSize(this.chunks[0]!, final);
      if (size === null || size > this.have) {
        if (final) throw new ProtoError('the last field is cut short');
        return;
      }
      this.gather(size);
      const head = this.chunks[0]!;
      const r = new ProtoReader(head, 0, size);
      const { field, wire } = r.tag();
      this.decoder.withField(r, () => this.decoder.field(field, wire, r));
      this.consume(size);
    }
  }

  /** The size of the field that starts `head` (tag, length and value); null when its header is not all there yet. */
  private fieldSize(head: Buffer, final: boolean): number | null {
    const r = new ProtoReader(head);
    try {
      const { wire } = r.tag();
      switch (wire) {
        case WIRE.varint:
          r.uint();
          return r.pos;
        case WIRE.fixed64:
          return r.pos + 8;
        case WIRE.fixed32:
          return r.pos + 4;
        case WIRE.bytes: {
          const length = r.uint();
          if (!r.exact || length > PPROF_LIMITS.fieldBytes) throw new PprofLimitError(`it has a field of ${(length / MiB).toFixed(0)} MB, past what V8 Lens reads from a profile`);
          return r.pos + length;
        }
        default:
          throw new ProtoError(`wire type ${wire} is not one profile.proto uses`);
      }
    } catch (err) {
      // A header cut by the chunk's end: wait for the next chunk (the first 20 bytes hold any header).
      if (err instanceof ProtoError && /cut short/.test(err.message) && !final && head.length < 20) return null;
      throw err;
    }
  }

  /** Makes the first chunk hold at least `n` bytes (copying only when a field spans chunks). */
  private gather(n: number): void {
    if (this.chunks[0]!.length >= n) return;
    let count = 0;
    let bytes = 0;
    while (bytes < n) bytes += this.chunks[count++]!.length;
    this.chunks.splice(0, count, Buffer.concat(this.chunks.slice(0, count), bytes));
  }

  private consume(n: number): void {
    const first = this.chunks[0]!;
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.have -= n;
  }
}

const asBuffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/** Plain (not gzipped) profile.proto bytes. Throws ProtoError (malformed) or PprofLimitError. */
export function decodeProfileProto(raw: Uint8Array): DecodedPprof {
  const decoder = new ProfileDecoder();
  const fields = new TopLevelFields(decoder);
  fields.push(asBuffer(raw));
  fields.end();
  return decoder.finish();
}

/** A gzip error, as opposed to a profile that is malformed or too big. */
export class GzipError extends Error {}

/**
 * Gzipped profile.proto, decompressed and decoded chunk by chunk: the limits stop a bomb after a
 * few MB of output, and the whole decompressed profile is never in memory at once.
 */
export async function decodeGzippedProfileProto(gz: Uint8Array): Promise<DecodedPprof> {
  const decoder = new ProfileDecoder();
  const fields = new TopLevelFields(decoder);
  const gunzip = zlib().createGunzip({ chunkSize: 256 * 1024 });
  const done = new Promise<void>((resolve, reject) => {
    gunzip.on('data', (chunk: Buffer) => {
      try {
        fields.push(chunk);
      } catch (err) {
        gunzip.destroy();
        reject(err);
      }
    });
    gunzip.on('error', (err) => reject(new GzipError(err.message)));
    gunzip.on('end', () => {
      try {
        fields.end();
        resolve();
      } catch (err) {
        reject(err);
      }
    });
  });
  gunzip.end(asBuffer(gz));
  await done;
  return decoder.finish();
}
