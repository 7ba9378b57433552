/** The counting median of sample gaps must agree with the shared `median()` it stands in for. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CpuProfile } from '../../../src/core/cpu/cpuProfileFormat';
import { medianInterval } from '../../../src/core/cpu/medianInterval';
import { median } from '../../../src/core/util/stats';

function profileWithDeltas(deltas: number[]): CpuProfile {
  return {
    sourceName: 't',
    format: 'modern',
    nodes: [{ id: 1, callFrame: { functionName: '(root)', url: '', scriptId: '0', line: 0, column: 0 }, positionTicks: [] }],
    parents: Int32Array.of(-1),
    samples: deltas.map(() => 0),
    timeDeltasUs: deltas,
    startTimeUs: 0,
    endTimeUs: 0,
  } as unknown as CpuProfile;
}

/** The gaps the model sees: between clamped times, positive only. */
function gaps(deltas: number[]): number[] {
  const out: number[] = [];
  let raw = 0;
  let previous = 0;
  deltas.forEach((d, i) => {
    raw += d;
    if (i > 0 && raw > previous) out.push(raw - previous);
    if (i === 0 || raw > previous) previous = raw;
  });
  return out;
}

describe('medianInterval', () => {
  it('agrees with median() on odd and even counts, long gaps and negative deltas', () => {
    let seed = 1;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 50; round++) {
      const n = 1 + Math.floor(rand() * 300);
      const deltas = Array.from({ length: n }, () => {
        const r = rand();
        return r < 0.05 ? -Math.floor(rand() * 8) : r < 0.1 ? 70_000 + Math.floor(rand() * 100_000) : Math.floor(rand() * 2000);
      });
      assert.equal(medianInterval(profileWithDeltas(deltas)), median(gaps(deltas)), deltas.join(','));
    }
  });

  it('falls back to median() for fractional gaps', () => {
    const deltas = [0, 1.5, 2.25, 1, 3];
    assert.equal(medianInterval(profileWithDeltas(deltas)), median(gaps(deltas)));
  });
});
