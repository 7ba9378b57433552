/**
 * A profile read from its bytes is the profile read from its text, to the last field: the fast path
 * on an ASCII file (its arrays and nodes scanned where they are), the text path for anything else,
 * and the same errors. The buffer the fast path borrows a byte of is given back unchanged.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { generateCpuProfile } from '../../../bench/generateCpuProfile';
import { parseCpuProfile, parseCpuProfileBytes } from '../../../src/core/cpu/parseCpuProfile';
import { CPU_FIXTURES, SPEEDSCOPE_DIR } from './cpuTestHelpers';

function same(text: string, what: string): void {
  const bytes = Buffer.from(text, 'utf8');
  const copy = Buffer.from(bytes);
  let fromText: unknown;
  let textError: unknown = null;
  try {
    fromText = parseCpuProfile(text, 'p.cpuprofile');
  } catch (err) {
    textError = err;
  }
  if (textError !== null) {
    assert.throws(() => parseCpuProfileBytes(bytes, 'p.cpuprofile'), (err: Error) => err.message === (textError as Error).message, what);
  } else {
    assert.deepEqual(parseCpuProfileBytes(bytes, 'p.cpuprofile'), fromText, what);
  }
  assert.ok(bytes.equals(copy), `${what}: the bytes are given back as they were`);
}

const recorded = [...readdirSync(CPU_FIXTURES).map((f) => join(CPU_FIXTURES, f)), ...readdirSync(SPEEDSCOPE_DIR).map((f) => join(SPEEDSCOPE_DIR, f))].filter((f) => f.endsWith('.cpuprofile'));
// Over a megabyte, so the fast path is taken.
const big = generateCpuProfile(3 * 1024 * 1024, 5);

describe('parseCpuProfileBytes', () => {
  it('reads every recorded profile as its text is read', () => {
    assert.ok(recorded.length >= 4);
    for (const file of recorded) same(readFileSync(file, 'utf8'), file);
  });

  it('reads a big V8-written profile on the fast path as its text is read', () => {
    same(big, 'generated');
  });

  it('reads non-ASCII names, other layouts and damaged files as their text is read', () => {
    same(big.replace('"functionName":"', '"functionName":"ünïcödé '), 'non-ASCII name');
    same(JSON.stringify(JSON.parse(big), null, 1), 'pretty-printed');
    same(big.replace('"hitCount":0', '"hitCount":0,"locationId":3'), 'another key');
    same(big.slice(0, big.length - 1000), 'cut short');
    same(big.replace(/"timeDeltas":\[(\d+)/, '"timeDeltas":[$1.5'), 'a fractional delta');
    same(big.replace('{"id":2,', '{"id":1,'), 'a duplicate id');
    same('{"nodes":[],"startTime":0,"endTime":0,"samples":[],"timeDeltas":[]}', 'no nodes');
  });
});
