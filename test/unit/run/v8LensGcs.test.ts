import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GcEvent } from '../../../src/core/gc/gcEvent';
import { groupByIsolate } from '../../../src/core/gc/gcSummary';
import type { AgentRecord } from '../../../src/core/preload/agentRecord';
import type { RunProcess } from '../../../src/core/run/processTable';
import { v8LensGcEvents, withoutEvents } from '../../../src/core/run/v8LensGcs';

function gc(timeMs: number, type: string, reason: string, pid = 7, isolate = '0x1'): GcEvent {
  return { pid, isolate, timeMs, type, interleaved: false, reduce: false, heapBeforeMB: 1, committedBeforeMB: 2, heapAfterMB: 1, committedAfterMB: 2, pooledMB: null, pauseMs: 1, externalMs: 0, incrementalMarking: null, mu: null, reason, collectorReason: '', source: 'trace-gc' };
}

function proc(allocations: AgentRecord['allocations'], pid = 7, isolate = '0x1'): RunProcess {
  const record = { pid, allocations } as AgentRecord;
  return { id: String(pid), pid, threadId: 0, parentPid: null, role: 'app', command: 'node', record, isApp: true, profile: null, isolate, logs: [], codeTrace: null } as unknown as RunProcess;
}

const alloc = (over: Partial<NonNullable<AgentRecord['allocations']>>) => ({ file: '7.heapprofile', samplingIntervalBytes: 32768, startMs: 0, endMs: 1, window: false, liveAtEndBytes: 0, ...over });

describe('GCs caused by V8 Lens', () => {
  it('takes as many "sampling profiler" GCs as the sampler stopped, the last ones, of that isolate only', () => {
    const events = [gc(1, 'Scavenge', 'allocation failure'), gc(2, 'Mark-Compact', 'sampling profiler'), gc(3, 'Scavenge', 'allocation failure'), gc(4, 'Mark-Compact', 'sampling profiler'), gc(5, 'Mark-Compact', 'sampling profiler', 8)];
    const isolates = groupByIsolate(events);
    const ours = v8LensGcEvents([proc(alloc({ samplerStops: 1 }))], isolates);
    assert.deepEqual([...ours].map((e) => e.timeMs), [4], 'the app\'s own earlier one, and another process\'s, stay the app\'s');
    const left = withoutEvents(isolates, ours);
    assert.deepEqual(left[0]!.events.map((e) => e.timeMs), [1, 2, 3]);
    assert.equal(left[1]!.events.length, 1);
  });

  it('a run without allocation sampling has none; an older record counts one stop, two with a window', () => {
    const events = [gc(1, 'Mark-Compact', 'sampling profiler'), gc(2, 'Mark-Compact', 'sampling profiler')];
    assert.equal(v8LensGcEvents([proc(null)], groupByIsolate(events)).size, 0);
    assert.equal(v8LensGcEvents([proc(alloc({}))], groupByIsolate(events)).size, 1);
    assert.equal(v8LensGcEvents([proc(alloc({ window: true }))], groupByIsolate(events)).size, 2);
  });
});
