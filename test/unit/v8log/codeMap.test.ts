import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CodeMap, normalizeAddress, type CodeEntry } from '../../../src/core/v8log/codeMap';

const hex = (n: bigint) => `0x${n.toString(16)}`;
const entry = (start: bigint, size: number, type = 'JS'): CodeEntry => ({ start: hex(start), size, type, fn: null, state: null });
const typeAt = (map: CodeMap, address: bigint) => map.find(hex(address))?.type ?? null;

describe('CodeMap', () => {
  it('finds code by exact start and by containing range', () => {
    const map = new CodeMap();
    map.add(entry(0x1000n, 0x100, 'A'));
    map.add(entry(0x2000n, 0x10, 'B'));
    assert.equal(typeAt(map, 0x1000n), 'A');
    assert.equal(typeAt(map, 0x10ffn), 'A');
    assert.equal(typeAt(map, 0x1100n), null);
    assert.equal(typeAt(map, 0xfffn), null);
    assert.equal(typeAt(map, 0x2008n), 'B');
  });

  it('applies moves and deletes', () => {
    const map = new CodeMap();
    map.add(entry(0x1000n, 0x100, 'A'));
    assert.ok(map.move('0x1000', '0x5000'));
    assert.equal(typeAt(map, 0x1000n), null);
    assert.equal(typeAt(map, 0x1010n), null);
    assert.equal(typeAt(map, 0x5010n), 'A');
    assert.ok(map.delete('0x5000'));
    assert.equal(typeAt(map, 0x5000n), null);
    assert.equal(map.move('0x1234', '0x9999'), false);
    assert.equal(map.size, 0);
  });

  it('lets a new code object replace an old one at the same start', () => {
    const map = new CodeMap();
    map.add(entry(0x1000n, 0x100, 'old'));
    map.add(entry(0x1000n, 0x10, 'new'));
    assert.equal(typeAt(map, 0x1000n), 'new');
    assert.equal(typeAt(map, 0x1050n), null);
  });

  it('keeps range lookups right across index merges, with moved and deleted code', () => {
    const map = new CodeMap();
    const n = 10_000n; // more than one merge batch
    for (let i = 0n; i < n; i++) map.add(entry(0x100000n + i * 0x100n, 0x80, `c${i}`));
    assert.equal(typeAt(map, 0x100000n + 5n * 0x100n + 0x7fn), 'c5');
    for (let i = 0n; i < n; i += 2n) map.delete(hex(0x100000n + i * 0x100n));
    map.move(hex(0x100000n + 7n * 0x100n), hex(0x900000n));
    for (let i = 0n; i < 5000n; i++) map.add(entry(0x2000000n + i * 0x100n, 0x80, `d${i}`));
    assert.equal(typeAt(map, 0x100000n + 4n * 0x100n + 0x10n), null); // deleted
    assert.equal(typeAt(map, 0x100000n + 7n * 0x100n + 0x10n), null); // moved away
    assert.equal(typeAt(map, 0x900010n), 'c7');
    assert.equal(typeAt(map, 0x100000n + 9999n * 0x100n + 0x10n), 'c9999');
    assert.equal(typeAt(map, 0x2000000n + 4999n * 0x100n + 0x7fn), 'd4999');
    assert.equal(typeAt(map, 0x2000000n + 4999n * 0x100n + 0x80n), null);
  });

  it('keeps addresses above 2^53 exact', () => {
    const map = new CodeMap();
    map.add(entry(0xffff800000000001n, 0x40, 'high'));
    assert.equal(typeAt(map, 0xffff800000000002n), 'high');
    assert.equal(typeAt(map, 0xffff800000000000n), null);
  });

  it('normalizes address spellings and rejects non-addresses', () => {
    assert.equal(normalizeAddress('0x7f8645fc6fc0'), '0x7f8645fc6fc0');
    assert.equal(normalizeAddress('0x00007F8645FC6FC0'), '0x7f8645fc6fc0');
    assert.equal(normalizeAddress('0x0'), '0x0');
    assert.equal(normalizeAddress('12'), null);
    assert.equal(normalizeAddress('0xzz'), null);
    assert.equal(normalizeAddress(''), null);
  });
});
