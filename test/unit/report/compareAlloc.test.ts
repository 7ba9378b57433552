/** Two runs' allocations compared: the rows, and the allocators whose bytes changed most. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allocMetricRows, allocatorChanges } from '../../../src/core/report/compareAlloc';
import { emptySummary, type AllocFunctionSummary, type AllocSummary, type Summary } from '../../../src/shared/model/summary';

const APP = 'file:///srv/app/server.js';
const fn = (name: string, line: number, share: number): AllocFunctionSummary => ({ name, url: APP, line, column: 1, selfBytes: share * 1000, totalBytes: share * 1000, share });

function run(alloc: Partial<AllocSummary> | null): Summary {
  const full: AllocSummary | null = alloc && {
    samplingIntervalBytes: 32768,
    totalBytes: 1000,
    bytesPerSecond: 1000,
    bytesPerRequest: null,
    liveAtEndBytes: null,
    sampleCount: 100,
    functions: [],
    ...alloc,
  };
  return emptySummary({ kind: 'run', path: '/runs/x' }, { alloc: full });
}

describe('allocatorChanges', () => {
  it('per request when both ran under load: each function\'s share × bytes per request, biggest change first, moved functions matched', () => {
    const a = run({ bytesPerRequest: 100_000, functions: [fn('handle', 32, 0.75), fn('render', 50, 0.2)] });
    // B: buildOrder (not inlined any more) takes what handle had; render moved two lines down and allocates less.
    const b = run({ bytesPerRequest: 80_000, functions: [fn('buildOrder', 18, 0.7), fn('render', 52, 0.25), fn('handle', 32, 0.05)] });
    const { changes, missing } = allocatorChanges(a, b);
    assert.equal(missing, null);
    assert.equal(changes!.unit, 'bytes/request');
    assert.deepEqual(
      changes!.functions.map((f) => [f.name, f.base, f.other, f.change, f.presence]),
      [
        ['handle', 75_000, 4_000, -71_000, 'both'],
        ['buildOrder', 0, 56_000, 56_000, 'other'],
        ['render', 20_000, 20_000, 0, 'both'],
      ].filter(([, , , change]) => change !== 0),
    );
    assert.equal(changes!.functions.find((f) => f.name === 'render'), undefined, 'no change, no row');
  });

  it('per second otherwise; a run without allocations is "not collected", never 0', () => {
    const a = run({ bytesPerSecond: 2000, functions: [fn('tick', 3, 0.5)] });
    const b = run({ bytesPerSecond: 3000, functions: [fn('tick', 3, 0.5)] });
    const per = allocatorChanges(a, b).changes!;
    assert.equal(per.unit, 'bytes/s');
    assert.deepEqual(per.functions.map((f) => [f.base, f.other, f.change]), [[1000, 1500, 500]]);
    assert.deepEqual(allocatorChanges(a, run(null)), { changes: null, missing: 'B did not sample allocations (not collected), so the allocators cannot be compared.' });
    assert.deepEqual(allocatorChanges(run(null), run(null)), { changes: null, missing: null });
  });
});

describe('allocMetricRows', () => {
  it('rate and total side by side; the side without them says so', () => {
    const rows = allocMetricRows(run({ bytesPerSecond: 2000, totalBytes: 4000 }), run(null))!;
    assert.equal(rows.rate.base, 2000);
    assert.equal(rows.rate.other, null);
    assert.equal(rows.rate.otherText, 'not collected');
    assert.equal(rows.rate.unit, 'bytes/s');
    assert.equal(rows.total.base, 4000);
    assert.equal(allocMetricRows(run(null), run(null)), null);
  });
});
