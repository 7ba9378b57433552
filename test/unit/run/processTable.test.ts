import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentRecord } from '../../../src/core/preload/agentRecord';
import { buildProcessTable, type ProcessTableInput } from '../../../src/core/run/processTable';

function record(pid: number, extra: Partial<AgentRecord> = {}): AgentRecord {
  return {
    schemaVersion: 1, pid, ppid: 1, threadId: 0, clusterWorkerId: null, hasIpc: false, codeTrace: null,
    argv: ['/usr/bin/node', '/app/server.js'], execArgv: [], nodeVersion: 'v20', v8Version: '11',
    processStartMs: 1000 + pid, updatedAtMs: 5000, final: true, exitCode: 0, stopSignal: null,
    heapSizeLimitBytes: 1, newSpaceMaxBytes: 0, maxRssKB: 1024, cpuUserUs: 0, cpuSystemUs: 0,
    machine: { cpus: 2, loadavg: [0, 0, 0], totalMemBytes: 1, platform: 'linux' }, cpuProfileFile: null, errors: [], ...extra,
  };
}

const input = (parts: Partial<ProcessTableInput>): ProcessTableInput => ({ records: [], launchedPid: null, cwd: '/app', profiles: [], gcIsolates: [], logs: [], codeTraces: [], ...parts });

describe('processTable: which process and thread each artifact belongs to', () => {
  it('a cluster: the launched primary and its workers, each with its own profile, isolate and trace', () => {
    const table = buildProcessTable(input({
      launchedPid: 10,
      records: [record(10), record(11, { ppid: 10, clusterWorkerId: 1, hasIpc: true }), record(12, { ppid: 10, clusterWorkerId: 2, hasIpc: true })],
      profiles: [10, 11, 12].map((pid) => ({ path: `/r/cpu/CPU.1.2.${pid}.0.001.cpuprofile`, file: `CPU.1.2.${pid}.0.001.cpuprofile`, pid, threadId: 0 })),
      gcIsolates: [{ pid: 11, isolate: '0xb' }, { pid: 12, isolate: '0xc' }, { pid: 10, isolate: '0xa' }],
      codeTraces: [11, 12].map((pid) => ({ path: `/r/v8/code-${pid}-0.asm`, file: `code-${pid}-0.asm`, pid, threadId: 0, kind: 'own' as const })),
    }));
    assert.deepEqual(table.map((p) => [p.id, p.role, p.parentPid, p.isolate, p.isApp, p.profile?.pid, p.codeTrace?.file ?? null]), [
      ['10', 'primary', 1, '0xa', true, 10, null],
      ['11', 'worker', 10, '0xb', false, 11, 'code-11-0.asm'],
      ['12', 'worker', 10, '0xc', false, 12, 'code-12-0.asm'],
    ]);
    assert.equal(table[1]!.command, 'node server.js');
  });

  it("worker threads: the main isolate is the one born first, the others are the threads in start order", () => {
    const table = buildProcessTable(input({
      launchedPid: 20,
      records: [record(20), record(20, { threadId: 1, processStartMs: 3000 }), record(20, { threadId: 2, processStartMs: 4000 })],
      // The first thread collected garbage before the main thread did: GC order alone would be wrong.
      gcIsolates: [{ pid: 20, isolate: '0x7f01' }, { pid: 20, isolate: '0x1a' }],
      logs: [
        { path: '/r/v8/isolate-0x7f02-20-v8.log', file: 'isolate-0x7f02-20-v8.log', pid: 20, isolate: '0x7f02', createdMs: 4001 },
        { path: '/r/v8/isolate-0x1a-20-v8.log', file: 'isolate-0x1a-20-v8.log', pid: 20, isolate: '0x1a', createdMs: 1000 },
        { path: '/r/v8/isolate-0x7f01-20-v8.log', file: 'isolate-0x7f01-20-v8.log', pid: 20, isolate: '0x7f01', createdMs: 3001 },
      ],
    }));
    assert.deepEqual(table.map((p) => [p.id, p.role, p.threadId, p.isolate, p.logs.map((l) => l.isolate)]), [
      ['20', 'main', 0, '0x1a', ['0x1a']],
      ['20/1', 'worker thread', 1, '0x7f01', ['0x7f01']],
      ['20/2', 'worker thread', 2, '0x7f02', ['0x7f02']],
    ]);
  });

  it('npm: its own process is listed as npm, the script it ran is the app; a forked child is a child', () => {
    const table = buildProcessTable(input({
      launchedPid: 30,
      records: [
        record(30, { argv: ['/usr/bin/node', '/usr/lib/node_modules/npm/bin/npm-cli.js', 'run', 'start'] }),
        record(31, { ppid: 30, cpuUserUs: 900 }),
        record(32, { ppid: 31, hasIpc: true, argv: ['/usr/bin/node', '/app/child.js'] }),
      ],
    }));
    assert.deepEqual(table.map((p) => [p.pid, p.role, p.isApp]), [[30, 'npm', false], [31, 'main', true], [32, 'child', false]]);
  });

  it('a thread seen only in the GC trace (no preload record) keeps its isolate as its id', () => {
    const table = buildProcessTable(input({ launchedPid: 40, records: [record(40)], gcIsolates: [{ pid: 40, isolate: '0x1' }, { pid: 40, isolate: '0x2' }] }));
    assert.deepEqual(table.map((p) => [p.id, p.role, p.threadId]), [['40', 'main', 0], ['40/0x2', 'worker thread', null]]);
  });
});
