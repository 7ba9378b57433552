/**
 * The fast path that scans the trailing sample arrays of big profiles itself: same results as plain
 * `JSON.parse`, and every layout it does not recognise falls back to the ordinary path.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateCpuProfile } from '../../../bench/generateCpuProfile';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { summarizeCpu } from '../../../src/core/cpu/cpuSummary';
import { cutTrailingNumberArrays } from '../../../src/core/cpu/trailingNumberArrays';

const text = generateCpuProfile(3 * 1024 * 1024, 7);
const raw = JSON.parse(text) as { samples: number[]; timeDeltas: number[] };
/** Same JSON value, but with a last member the fast path does not cut: forces the ordinary path. */
const plain = `${text.slice(0, -1)},"zz":1}`;

function summary(t: string) {
  return summarizeCpu(parseCpuProfile(t, 'gen.cpuprofile'), { profileFile: 'gen.cpuprofile' });
}

describe('trailing sample arrays', () => {
  it('are cut and scanned exactly', () => {
    const cut = cutTrailingNumberArrays(text);
    assert.ok(cut);
    assert.deepEqual([...cut.samples!], raw.samples);
    assert.deepEqual([...cut.timeDeltas!], raw.timeDeltas);
    assert.ok(raw.timeDeltas.some((d) => d < 0), 'the generated profile has negative deltas');
    const rest = JSON.parse(cut.rest) as Record<string, unknown>;
    assert.deepEqual(Object.keys(rest), ['nodes', 'startTime', 'endTime']);
  });

  it('give the same profile and summary as the ordinary path', () => {
    assert.equal(cutTrailingNumberArrays(plain), null);
    const fast = parseCpuProfile(text, 'gen.cpuprofile');
    const slow = parseCpuProfile(plain, 'gen.cpuprofile');
    assert.deepEqual([...fast.samples], [...slow.samples]);
    assert.deepEqual([...fast.timeDeltasUs], [...slow.timeDeltasUs]);
    assert.deepEqual(fast.nodes, slow.nodes);
    assert.deepEqual(summary(text), summary(plain));
  });

  it('handle pretty-printed files', () => {
    const pretty = JSON.stringify(JSON.parse(text), null, 2);
    const cut = cutTrailingNumberArrays(pretty);
    assert.ok(cut);
    assert.deepEqual([...cut.samples!], raw.samples);
    assert.deepEqual(summary(pretty), summary(text));
  });

  it('leave anything unusual to JSON.parse', () => {
    const withTail = (tail: string) => `${text.slice(0, text.lastIndexOf(',"timeDeltas":['))},"timeDeltas":[${tail}]}`;
    assert.equal(cutTrailingNumberArrays(withTail('1,2.5,3')), null, 'a fraction');
    assert.equal(cutTrailingNumberArrays(withTail('1,1e3,3')), null, 'an exponent');
    assert.equal(cutTrailingNumberArrays(withTail('1,007,3')), null, 'a leading zero (not JSON)');
    assert.equal(cutTrailingNumberArrays(withTail('1,2,')), null, 'a trailing comma');
    assert.equal(cutTrailingNumberArrays(withTail('1,,2')), null, 'an empty element');
    assert.equal(cutTrailingNumberArrays(withTail('1,3000000000')), null, 'beyond 32 bits');
    assert.equal(cutTrailingNumberArrays(withTail('1,"2"')), null, 'a string');
    assert.equal(cutTrailingNumberArrays(withTail('[1],[2]')), null, 'nested arrays');
    assert.equal(cutTrailingNumberArrays(`${text.slice(0, -1)}  `), null, 'not closed');
    // A fraction in the deltas still parses, through the ordinary path.
    const fractional = parseCpuProfile(withTail(raw.timeDeltas.map((d, i) => (i === 3 ? d + 0.5 : d)).join(',')), 'f.cpuprofile');
    assert.equal(fractional.timeDeltasUs[3], raw.timeDeltas[3]! + 0.5);
  });

  it('are not fooled by look-alike keys inside strings or nested objects', () => {
    const v = JSON.parse(text) as Record<string, unknown>;
    const trick = JSON.stringify({ ...v, note: 'x","samples":[1,2]' });
    assert.equal(cutTrailingNumberArrays(trick), null, 'the last member is a string');
    const nested = JSON.stringify({ ...v, extra: { samples: [1, 2] } });
    assert.equal(cutTrailingNumberArrays(nested), null, 'the last member is an object');
    const keyQuote = `${text.slice(0, text.lastIndexOf(',"timeDeltas":['))},"x\\"timeDeltas":[1]}`;
    assert.equal(cutTrailingNumberArrays(keyQuote)?.timeDeltas, undefined, 'a key that only ends like one');
  });

  it('a truncated big file is still reported as truncated', () => {
    for (const end of [text.length >> 1, text.lastIndexOf('}', text.length - 2) + 1, text.length - 3]) {
      assert.throws(() => parseCpuProfile(text.slice(0, end), 'big.cpuprofile'), /truncated/);
    }
  });
});

describe('trailing sample arrays with non-ASCII text', () => {
  it('reject a character whose low byte looks like a digit', () => {
    // U+0130 is 0x130: as Latin-1 its low byte would read as '0'.
    const t = `${text.slice(0, text.lastIndexOf(',"timeDeltas":['))},"timeDeltas":[1,2\u0130,3]}`;
    assert.equal(cutTrailingNumberArrays(t), null);
    assert.throws(() => parseCpuProfile(t, 'u.cpuprofile'), /not valid JSON/);
  });
});
