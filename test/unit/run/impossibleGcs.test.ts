import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GcEvent } from '../../../src/core/gc/gcEvent';
import { groupByIsolate } from '../../../src/core/gc/gcSummary';
import type { AgentRecord } from '../../../src/core/preload/agentRecord';
import { impossibleGcEvents } from '../../../src/core/run/impossibleGcs';

function gc(timeMs: number, pauseMs: number, isolate = '0x1'): GcEvent {
  return { pid: 7, isolate, timeMs, type: 'Scavenge', interleaved: false, reduce: false, heapBeforeMB: 1, committedBeforeMB: 2, heapAfterMB: 1, committedAfterMB: 2, pooledMB: null, pauseMs, externalMs: 0, incrementalMarking: null, mu: null, reason: 'allocation failure', collectorReason: '', source: 'trace-gc' };
}
const record = { pid: 7, threadId: 0, processStartMs: 1_000, updatedAtMs: 3_000, final: true } as AgentRecord;

describe('GC lines V8 cannot have written', () => {
  it('a time past the process\'s life, a pause longer than the isolate\'s age, a clock that runs back', () => {
    const events = [gc(100, 1), gc(999_999_999, 2), gc(200, 5_000), gc(1_500, 1), gc(100, 1), gc(1_600, 1)];
    const out = impossibleGcEvents([record], groupByIsolate(events), null);
    assert.deepEqual([...out.events].map((e) => [e.timeMs, e.pauseMs]), [[999_999_999, 2], [200, 5_000], [100, 1]]);
    assert.match(out.warning!, /^3 GC-shaped lines under the run's pids could not have come from V8 \(a pause of 5,000 ms at 200 ms/);
  });

  it('real traces pass whole, a worker isolate included; without a record the run\'s length bounds them', () => {
    const events = [gc(5, 1), gc(900, 3), gc(10, 1, '0x2'), gc(1_200, 2, '0x2')];
    assert.equal(impossibleGcEvents([record], groupByIsolate(events), null).warning, null);
    assert.equal(impossibleGcEvents([], groupByIsolate([gc(50_000, 1)]), 2_000).events.size, 1);
    assert.equal(impossibleGcEvents([], groupByIsolate([gc(50_000, 1)]), null).events.size, 0);
  });
});
