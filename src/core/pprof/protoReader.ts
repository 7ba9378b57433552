/**
 * The protobuf wire format, read from bytes with every varint bounded: the pieces profileProto.ts
 * decodes profile.proto with. A varint is at most 10 bytes; a field number is any up to 2^29 − 1
 * (multi-byte tags: `pprof-format`'s decoder reads fields ≥ 16 wrongly); an int64 that is negative
 * (10 bytes, two's complement) reads as a negative number, not as 1.8e19; a value beyond 2^53 is
 * flagged as inexact rather than silently rounded.
 */

export class ProtoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtoError';
  }
}

export const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

const TWO_32 = 2 ** 32;

export class ProtoReader {
  pos: number;
  /** Set by each varint read: false when its value is beyond 2^53 (or below −2^53) and was rounded. */
  exact = true;

  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** The two 32-bit halves of the next varint; throws on a cut or over-long one. */
  private halves(): [number, number] {
    const { buf, end } = this;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= end) throw new ProtoError('a number is cut short');
      const b = buf[this.pos++]!;
      if (i < 4) lo |= (b & 0x7f) << (7 * i);
      else if (i === 4) {
        lo |= (b & 0x0f) << 28;
        hi |= (b & 0x7f) >>> 4;
      } else hi |= (b & 0x7f) << (7 * i - 32);
      if ((b & 0x80) === 0) return [lo >>> 0, hi >>> 0];
    }
    throw new ProtoError('a number is longer than 10 bytes');
  }

  /** An unsigned varint (uint64, or an int64 read as unsigned: ids, addresses). */
  uint(): number {
    const [lo, hi] = this.halves();
    this.exact = hi < 0x200000;
    return hi * TWO_32 + lo;
  }

  /** A signed int64 (two's complement): -1 is ten bytes and reads as -1. */
  int(): number {
    const [lo, hi] = this.halves();
    if (hi & 0x80000000) {
      const nhi = ~hi >>> 0;
      const nlo = ~lo >>> 0;
      this.exact = nhi < 0x200000;
      return -(nhi * TWO_32 + nlo + 1);
    }
    this.exact = hi < 0x200000;
    return hi * TWO_32 + lo;
  }

  /** A field's tag: its number and wire type. */
  tag(): { field: number; wire: number } {
    const [lo, hi] = this.halves();
    if (hi !== 0 || lo >>> 3 === 0) throw new ProtoError(`field number ${hi * 2 ** 29 + (lo >>> 3)} is not a protobuf field number`);
    return { field: lo >>> 3, wire: lo & 7 };
  }

  /** A length-delimited field's bounds; throws when it runs past the message. */
  bytes(): { start: number; end: number } {
    const length = this.uint();
    if (!this.exact || length > this.end - this.pos) throw new ProtoError(`a field of ${length} bytes runs past the end of its message`);
    const start = this.pos;
    this.pos += length;
    return { start, end: this.pos };
  }

  /** Skips a field of a number this reader does not know (newer fields, extensions). */
  skip(wire: number): void {
    switch (wire) {
      case WIRE.varint:
        this.halves();
        return;
      case WIRE.fixed64:
        this.advance(8);
        return;
      case WIRE.bytes:
        this.bytes();
        return;
      case WIRE.fixed32:
        this.advance(4);
        return;
      default:
        // 3 and 4 are proto2 groups, which profile.proto never uses; 6 and 7 do not exist.
        throw new ProtoError(`wire type ${wire} is not one profile.proto uses`);
    }
  }

  private advance(n: number): void {
    if (this.end - this.pos < n) throw new ProtoError('a fixed-size field is cut short');
    this.pos += n;
  }

  /**
   * A repeated integer field: packed (one length-delimited run) or not (one value per tag); each
   * value to `each`. Returns how many were read.
   */
  repeated(wire: number, signed: boolean, each: (value: number, exact: boolean) => void): number {
    if (wire === WIRE.varint) {
      each(signed ? this.int() : this.uint(), this.exact);
      return 1;
    }
    if (wire !== WIRE.bytes) throw new ProtoError(`a list of numbers has wire type ${wire}`);
    const { start, end } = this.bytes();
    const run = new ProtoReader(this.buf, start, end);
    let count = 0;
    while (!run.done) {
      each(signed ? run.int() : run.uint(), run.exact);
      count++;
    }
    return count;
  }
}
