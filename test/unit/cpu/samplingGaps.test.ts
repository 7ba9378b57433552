/**
 * Sampling gaps: time a profile says nothing about. Profiles built sample by sample, so every gap
 * and its length is known; the saturated-machine run is held in test/integration/samplingGaps.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { samplingGapWarning, samplingGaps } from '../../../src/core/cpu/samplingGaps';

/** A .cpuprofile of `work` and `(idle)` samples with these deltas (µs), each sample `work` unless its index is in `idle`. */
function profileText(deltas: number[], idle: ReadonlySet<number> = new Set()): string {
  const nodes = [
    { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2, 3] },
    { id: 2, callFrame: { functionName: 'work', scriptId: '1', url: 'file:///app.js', lineNumber: 3, columnNumber: 0 }, hitCount: 0 },
    { id: 3, callFrame: { functionName: '(idle)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0 },
  ];
  const samples = deltas.map((_, i) => (idle.has(i) ? 3 : 2));
  const end = deltas.reduce((a, b) => a + b, 0) + 1000;
  return JSON.stringify({ nodes, startTime: 0, endTime: end, samples, timeDeltas: deltas });
}

describe('sampling gaps', () => {
  it('a run with a third of its time in gaps says how much, how many and the longest', () => {
    // 2,000 samples 1 ms apart, and 100 gaps of 11 ms: 1,000 ms not sampled of 3,101 ms.
    const deltas = Array.from({ length: 2100 }, (_, i) => (i % 21 === 20 ? 11_000 : 1000));
    const profile = parseCpuProfile(profileText(deltas), 'saturated.cpuprofile');
    const gaps = samplingGaps(profile);
    assert.equal(gaps.count, 100);
    assert.equal(gaps.intervalMs, 1);
    assert.equal(gaps.unsampledMs, 1000);
    assert.equal(gaps.longestMs, 11);
    assert.equal(gaps.wallMs, 3101);
    assert.ok(
      profile.warnings.includes('1.0 s of 3.1 s had no CPU sample (100 gaps of more than twice the 1.00 ms interval, the longest 11 ms): the machine was saturated (more runnable threads than cores) or the process was stopped, so the times here count only the samples taken'),
      profile.warnings.join('\n'),
    );
  });

  it('gaps next to an idle sample are not counted: an idle process that loses samples loses nothing it ran', () => {
    const deltas = Array.from({ length: 2100 }, (_, i) => (i % 21 === 20 ? 11_000 : 1000));
    const idle = new Set(deltas.flatMap((d, i) => (d > 1000 ? [i] : [])));
    const profile = parseCpuProfile(profileText(deltas, idle), 'idle.cpuprofile');
    assert.equal(samplingGaps(profile).count, 0);
    assert.ok(!profile.warnings.some((w) => /had no CPU sample/.test(w)));
  });

  it('jitter and a start-up stall are not a saturated machine: under 5% or 250 ms is not said', () => {
    const jitter = Array.from({ length: 3000 }, (_, i) => (i === 5 ? 40_000 : i % 50 === 0 ? 2500 : 1000));
    const profile = parseCpuProfile(profileText(jitter), 'quiet.cpuprofile');
    const gaps = samplingGaps(profile);
    assert.ok(gaps.count > 0 && gaps.unsampledMs < 250, JSON.stringify(gaps));
    assert.equal(samplingGapWarning(gaps), null);
    assert.ok(!profile.warnings.some((w) => /had no CPU sample/.test(w)));
  });
});
