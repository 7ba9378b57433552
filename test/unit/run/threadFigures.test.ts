/** A thread's own CPU and wall time from the agent's reading and the outside reading of /proc. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentRecord } from '../../../src/core/preload/agentRecord';
import type { ThreadCpuRecord } from '../../../src/core/launcher/threadPoller';
import { readThreadRecord, threadFigures, threadWallMs } from '../../../src/core/run/threadFigures';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLayout } from '../../../src/core/run/runLayout';
import { tempDir } from '../../../scripts/tempDirs';

function record(parts: Partial<AgentRecord>): AgentRecord {
  return {
    schemaVersion: 1, pid: 100, ppid: 1, threadId: 1, tid: 105, argv: [], execArgv: [], nodeVersion: 'v22.0.0', v8Version: '12',
    processStartMs: 10_000, updatedAtMs: 10_050, final: false, exitCode: null, stopSignal: null, heapSizeLimitBytes: 0,
    newSpaceMaxBytes: 0, maxRssKB: 0, cpuUserUs: 0, cpuSystemUs: 0, threadCpuUs: 40_000, threadCpuSource: 'threadCpuUsage',
    cpuProfileFile: null, errors: [], ...parts,
  };
}

const polled: ThreadCpuRecord = {
  schemaVersion: 1, source: 'schedstat', intervalMs: 100,
  threads: [
    { pid: 100, tid: 100, cpuMs: 900, firstSeenMs: 10_000, lastSeenMs: 16_000 },
    { pid: 100, tid: 105, cpuMs: 130, firstSeenMs: 10_100, lastSeenMs: 15_900 },
  ],
};

describe('threadFigures', () => {
  it("a waiting worker whose record stopped at its start: /proc's later reading, and its end for the wall time", () => {
    const r = record({});
    const f = threadFigures(r, polled);
    assert.deepEqual(f, { tid: 105, cpuMs: 130, source: '/proc', endMs: 15_900 });
    assert.equal(threadWallMs(r, f, 5000), 5900, 'from its start to when it was last seen');
  });

  it("the thread's own reading at its exit is the last word", () => {
    const r = record({ final: true, updatedAtMs: 15_950, threadCpuUs: 134_500 });
    assert.deepEqual(threadFigures(r, polled), { tid: 105, cpuMs: 134.5, source: 'threadCpuUsage', endMs: 15_950 });
  });

  it('an early reading with nothing from outside is not collected, not a short figure', () => {
    const f = threadFigures(record({}), null);
    assert.equal(f.cpuMs, null);
    assert.equal(f.source, null);
    // The wall time falls back on the profile's length when the record ends too early.
    assert.equal(threadWallMs(record({}), f, 5000), 5000);
  });

  it("a main thread from an agent that did not record its tid is its pid's task", () => {
    const r = record({ threadId: 0, tid: undefined, final: true, updatedAtMs: 16_050, threadCpuUs: 950_000, threadCpuSource: 'schedstat' });
    const f = threadFigures(r, polled);
    assert.equal(f.tid, process.platform === 'linux' ? 100 : null);
    assert.equal(f.cpuMs, 950);
  });
});

describe('readThreadRecord', () => {
  it('a threads.json of the wrong shape is one line among the warnings, and no figure', async () => {
    const dir = tempDir('v8-lens-threads-');
    writeFileSync(join(dir, 'threads.json'), JSON.stringify({ schemaVersion: 1, source: 'schedstat', intervalMs: 100, threads: [{ pid: 'x' }] }));
    const warnings: string[] = [];
    assert.equal(await readThreadRecord(runLayout(dir), warnings), null);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /^threads\.json: .*; the threads' own CPU times are left out$/);
  });

  it('none at all (an older run, attach, not Linux) says nothing', async () => {
    const warnings: string[] = [];
    assert.equal(await readThreadRecord(runLayout(tempDir('v8-lens-threads-')), warnings), null);
    assert.deepEqual(warnings, []);
  });
});
