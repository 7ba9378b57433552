/** The time-weighted model on small hand-made profiles whose numbers can be worked out by hand. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildCpuModel, type CpuModel } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { summarizeCpu } from '../../../src/core/cpu/cpuSummary';
import { sampleTimes, sampleWeights } from '../../../src/core/cpu/sampleWeights';
import { CPU_FIXTURES, profileText } from './cpuTestHelpers';

function fn(model: CpuModel, name: string) {
  const found = model.functions.filter((f) => f.name === name);
  assert.equal(found.length, 1, name);
  return found[0]!;
}

describe('recursion (fib → fib → fib)', () => {
  // Samples every 10 µs: fib³, fib³, fib², fib¹, GC, (program); profiling ends 40 µs after the last.
  const profile = parseCpuProfile(readFileSync(join(CPU_FIXTURES, 'fib-recursion.cpuprofile'), 'utf8'), 'fib.cpuprofile');
  const model = buildCpuModel(profile);

  it('counts a recursive function once per sample in its total', () => {
    // Per-node totals would add up to 40 + 30 + 20 = 90 µs: the double counting VS Code shows.
    assert.equal(fn(model, 'fib').totalUs, 40);
    assert.equal(fn(model, 'fib').selfUs, 40);
    assert.equal(fn(model, 'main').totalUs, 40);
    assert.equal(fn(model, 'main').selfUs, 0);
  });

  it('weights by time to the next sample, the last one up to endTime, nothing before the first', () => {
    assert.equal(fn(model, '(garbage collector)').selfUs, 10);
    assert.equal(fn(model, '(program)').selfUs, 40);
    assert.equal(model.lastSampleWeightUs, 40);
    assert.equal(model.durationUs, 100);
    assert.equal(model.coveredUs, 90);
    assert.equal(model.functions.reduce((s, f) => s + f.selfUs, 0), 90);
    assert.equal(model.sampleIntervalUs, 10);
  });

  it('splits self time over positionTicks lines (already 1-based)', () => {
    const lines = model.lines.map((l) => [l.url, l.line, l.selfUs]).sort();
    assert.deepEqual(lines, [
      ['file:///app/fib.js', 2, 20],
      ['file:///app/fib.js', 3, 20],
    ]);
  });

  it('summarizes in ms with 1-based positions, VM rows kept at 0:0, (root) left out', () => {
    const summary = summarizeCpu(profile, { profileFile: 'fib.cpuprofile' });
    assert.deepEqual(summary, {
      profile: 'fib.cpuprofile',
      // The sampled time: the 10 µs before the first sample went to no function, and are said apart.
      durationMs: 0.09,
      sampleCount: 6,
      sampleIntervalMs: 0.01,
      functions: [
        { name: '(program)', url: '', line: 0, column: 0, selfMs: 0.04, totalMs: 0.04 },
        { name: 'fib', url: 'file:///app/fib.js', line: 1, column: 13, selfMs: 0.04, totalMs: 0.04 },
        { name: '(garbage collector)', url: '', line: 0, column: 0, selfMs: 0.01, totalMs: 0.01 },
        { name: 'main', url: 'file:///app/fib.js', line: 10, column: 1, selfMs: 0, totalMs: 0.04 },
      ],
      lines: [
        { url: 'file:///app/fib.js', line: 2, selfMs: 0.02 },
        { url: 'file:///app/fib.js', line: 3, selfMs: 0.02 },
      ],
      pseudo: { gcMs: 0.01, idleMs: 0, programMs: 0.04 },
      // No thread waited (no Atomics.wait frame): all of the sampled time was on the CPU.
      waitingMs: 0,
      onCpuMs: 0.09,
      leftOut: { v8LensMs: 0, v8LensSamples: 0, beforeFirstSampleMs: 0.01 },
    });
  });

  it('cuts the arrays when asked', () => {
    const summary = summarizeCpu(profile, { profileFile: 'x', topFunctions: 1, topLines: 1 });
    assert.equal(summary.functions.length, 1);
    assert.equal(summary.lines.length, 1);
  });
});

describe('mutual recursion (a → b → a → b)', () => {
  const text = profileText({
    nodes: [
      { id: 1, name: '(root)', children: [2] },
      { id: 2, name: 'a', url: 'file:///m.js', line0: 0, children: [3] },
      { id: 3, name: 'b', url: 'file:///m.js', line0: 5, children: [4] },
      { id: 4, name: 'a', url: 'file:///m.js', line0: 0, children: [5] },
      { id: 5, name: 'b', url: 'file:///m.js', line0: 5 },
    ],
    samples: [5, 3, 2],
    timeDeltas: [1, 100, 100],
    endTime: 1_000_000 + 1 + 100 + 100 + 100,
  });
  const model = buildCpuModel(parseCpuProfile(text, 'mutual.cpuprofile'));

  it('counts each function once per sample however the recursion interleaves', () => {
    assert.equal(fn(model, 'a').totalUs, 300);
    assert.equal(fn(model, 'b').totalUs, 200);
    assert.equal(fn(model, 'b').selfUs, 200);
    assert.equal(fn(model, 'a').selfUs, 100);
  });
});

describe('sample timing', () => {
  const nodes = [
    { id: 1, name: '(root)', children: [2, 3] },
    { id: 2, name: 'x', url: 'file:///t.js' },
    { id: 3, name: 'y', url: 'file:///t.js', line0: 9 },
  ];

  it('clamps negative deltas: time never goes backwards, and the raw clock is kept', () => {
    // Raw times 100, 200, 195 (−5), 300 (+105), end 400.
    const text = profileText({ nodes, samples: [2, 3, 2, 3], timeDeltas: [100, 100, -5, 105], startTime: 0, endTime: 400 });
    const profile = parseCpuProfile(text, 'neg.cpuprofile');
    const times = sampleTimes(profile);
    assert.deepEqual([...times], [100, 200, 200, 300]);
    assert.deepEqual([...sampleWeights(profile, times)], [100, 0, 100, 100]);
    const model = buildCpuModel(profile);
    assert.equal(fn(model, 'x').selfUs, 200);
    assert.equal(fn(model, 'y').selfUs, 100);
    assert.equal(model.coveredUs, 300);
    assert.equal(model.sampleIntervalUs, 100);
  });

  it('gives the last sample nothing when endTime is not after it', () => {
    const text = profileText({ nodes, samples: [2, 3], timeDeltas: [10, 20], startTime: 0, endTime: 25 });
    const model = buildCpuModel(parseCpuProfile(text, 'end.cpuprofile'));
    assert.equal(model.lastSampleWeightUs, 0);
    assert.equal(fn(model, 'y').selfUs, 0);
    assert.equal(fn(model, 'x').selfUs, 20);
    assert.equal(model.durationUs, 30);
  });

  it('takes the median of the positive gaps as the sampling interval', () => {
    const text = profileText({ nodes, samples: [2, 2, 2, 2, 2, 2], timeDeltas: [7, 10, 10, 0, 30, 12], startTime: 0 });
    const summary = summarizeCpu(parseCpuProfile(text, 'gaps.cpuprofile'), { profileFile: 'gaps' });
    // Gaps 10, 10, 30, 12 (the 0 is no gap): median (10 + 12) / 2.
    assert.equal(summary.sampleIntervalMs, 0.011);
  });

  it('handles a profile without samples', () => {
    const text = profileText({ nodes, samples: [], timeDeltas: [], startTime: 0, endTime: 50 });
    const profile = parseCpuProfile(text, 'none.cpuprofile');
    assert.equal(profile.warnings.length, 1);
    const summary = summarizeCpu(profile, { profileFile: 'none' });
    assert.equal(summary.sampleCount, 0);
    // Nothing was sampled: the whole profile is time no sample saw.
    assert.equal(summary.durationMs, 0);
    assert.equal(summary.leftOut?.beforeFirstSampleMs, 0.05);
    assert.deepEqual(summary.functions, []);
    assert.equal(summary.sampleIntervalMs, 0);
  });
});

describe('lines', () => {
  it('merges lines shared by two functions and skips nodes without a url', () => {
    const text = profileText({
      nodes: [
        { id: 1, name: '(root)', children: [2, 4] },
        { id: 2, name: 'outer', url: 'file:///l.js', line0: 0, children: [3], positionTicks: [{ line: 5, ticks: 3 }, { line: 6, ticks: 1 }] },
        { id: 3, name: '', url: 'file:///l.js', line0: 4, col0: 10, positionTicks: [{ line: 5, ticks: 2 }] },
        { id: 4, name: 'native', positionTicks: [{ line: 1, ticks: 1 }] },
      ],
      samples: [2, 3, 4],
      timeDeltas: [0, 40, 60],
      startTime: 0,
      endTime: 100 + 8,
    });
    const model = buildCpuModel(parseCpuProfile(text, 'lines.cpuprofile'));
    // outer: 40 µs → 30 on line 5, 10 on line 6; the arrow function: 60 µs on line 5.
    assert.deepEqual(
      model.lines.map((l) => [l.url, l.line, l.selfUs]),
      [
        ['file:///l.js', 5, 90],
        ['file:///l.js', 6, 10],
      ],
    );
    assert.equal(fn(model, '(anonymous)').line, 5);
    assert.equal(fn(model, '(anonymous)').column, 11);
  });
});
