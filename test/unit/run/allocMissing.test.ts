/**
 * The reason after "not collected" for a run's or a thread's allocations: what really happened, never
 * the preset when the run asked for them (issue 21: a worker's panel blamed the default preset).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentRecord } from '../../../src/core/preload/agentRecord';
import { processAllocMissing, runAllocMissing } from '../../../src/core/run/allocMissing';

const record = (over: Partial<AgentRecord>): AgentRecord =>
  ({ schemaVersion: 1, pid: 10, ppid: 1, threadId: 1, argv: [], execArgv: [], nodeVersion: 'v22.0.0', v8Version: '12', processStartMs: 0, updatedAtMs: 0, final: true, exitCode: null, stopSignal: null, heapSizeLimitBytes: 0, newSpaceMaxBytes: 0, maxRssKB: 0, cpuUserUs: 0, cpuSystemUs: 0, cpuProfileFile: null, errors: [], allocations: null, ...over }) as AgentRecord;

describe('why allocations are missing', () => {
  it('a run that did not ask names its preset; one that asked has no run-level reason', () => {
    assert.equal(runAllocMissing(false, 'cpu-gc'), "this run's preset (cpu-gc) does not sample them; the default preset does");
    assert.equal(runAllocMissing(true, 'cpu-gc-deopts'), null);
  });

  it('a thread: no agent, an agent error, ended first, the window never opened, an unreadable profile', () => {
    assert.match(processAllocMissing({ record: null, threadId: 2 }, false), /no V8 Lens agent ran in this thread/);
    assert.equal(processAllocMissing({ record: record({ errors: ['allocations: Session is already connected'] }), threadId: 1 }, false), 'its agent could not sample them (Session is already connected)');
    assert.match(processAllocMissing({ record: record({ final: false }), threadId: 1 }, false), /^the thread ended before its agent could write them/);
    assert.match(processAllocMissing({ record: record({ final: false }), threadId: 0 }, false), /^the process did not exit normally/);
    assert.match(processAllocMissing({ record: record({}), threadId: 1 }, true), /^the measured window never opened while this thread ran/);
    const written = { file: '10-1.heapprofile', samplingIntervalBytes: 32768, startMs: 0, endMs: 1, window: false, liveAtEndBytes: 0 };
    assert.match(processAllocMissing({ record: record({ allocations: written }), threadId: 1 }, false), /could not be read/);
    for (const text of [processAllocMissing({ record: record({ final: false }), threadId: 1 }, false), processAllocMissing({ record: null, threadId: 1 }, false)]) assert.doesNotMatch(text, /preset/);
  });
});
