/**
 * Worker threads as a pool runs them (issue 21): two workers that wait in Atomics.wait between
 * tasks, so their timers never run, and that the process ends with process.exit() while they wait,
 * so they get no exit event. Through `npm start` (flags in NODE_OPTIONS, in-process profiles) each
 * worker's CPU profile and allocations are in the run, and the notice said so before the start; a
 * direct launch has each worker's allocations too. Held against V8's own files of the same run: the
 * workers' .cpuprofile and .heapprofile, and the GC trace's isolates.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import type { AgentRecord } from '../../src/core/preload/agentRecord';
import type { Summary } from '../../src/shared/model/summary';
import { NODES, PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';

const FIXTURE = join(PROGRAMS, 'npm-worker-pool');
const WORKER_FUNCTIONS = new Set(['hashTask', 'buildKeys']);

interface RawProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
}

interface RawHeapNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children?: RawHeapNode[];
}

function record(run: string, file: string): AgentRecord {
  return JSON.parse(readFileSync(join(run, 'agent', file), 'utf8')) as AgentRecord;
}

/** Samples of the pool's own functions in a thread's .cpuprofile: V8's account of what it ran. */
function poolSamples(run: string, pid: number, threadId: number): number {
  const file = readdirSync(join(run, 'cpu')).find((f) => new RegExp(`^CPU\\.\\d+\\.\\d+\\.${pid}\\.${threadId}\\.\\d+\\.cpuprofile$`).test(f));
  assert.ok(file, `a CPU profile of ${pid}/${threadId}: ${readdirSync(join(run, 'cpu')).join(', ')}`);
  const profile = JSON.parse(readFileSync(join(run, 'cpu', file), 'utf8')) as RawProfile;
  const ours = new Set(profile.nodes.filter((n) => n.callFrame.url.endsWith('pool-worker.js') && WORKER_FUNCTIONS.has(n.callFrame.functionName)).map((n) => n.id));
  return profile.samples.filter((id) => ours.has(id)).length;
}

/** Bytes V8's heap profile of a thread gives the pool's own functions. */
function poolBytes(run: string, file: string): number {
  const profile = JSON.parse(readFileSync(join(run, 'heap', file), 'utf8')) as { head: RawHeapNode };
  let bytes = 0;
  const walk = (n: RawHeapNode) => {
    if (n.callFrame.url.endsWith('pool-worker.js') && WORKER_FUNCTIONS.has(n.callFrame.functionName)) bytes += n.selfSize;
    for (const c of n.children ?? []) walk(c);
  };
  walk(profile.head);
  return bytes;
}

/** What every launch must show of the two workers; returns the app's pid. */
function checkWorkers(run: string, summary: Summary, withCpu: boolean): number {
  const threads = (summary.processes ?? []).filter((p) => p.role === 'worker thread');
  assert.equal(threads.length, 2, `two worker threads: ${JSON.stringify(summary.processes?.map((p) => [p.id, p.role]))}`);
  const pid = threads[0]!.pid;
  for (const t of threads) {
    assert.equal(t.pid, pid);
    const rec = record(run, `${t.pid}-${t.threadId}.json`);
    // The relay reached the agent in a thread that never ran a timer and got no exit event.
    assert.equal(rec.final, true, `${t.id}: its agent wrote its final record (errors: ${rec.errors.join('; ')})`);
    assert.ok(rec.allocations, `${t.id}: allocations written (errors: ${rec.errors.join('; ')})`);
    assert.equal(rec.allocations.file, `${t.pid}-${t.threadId}.heapprofile`);
    // V8's heap profile of that thread: the pool's own functions allocated there, and the summary says so.
    const bytes = poolBytes(run, rec.allocations.file);
    assert.ok(bytes > 0, `${t.id}: V8's heap profile has the pool's allocations`);
    assert.ok(t.alloc && t.alloc.totalBytes >= bytes, `${t.id}: alloc ${t.alloc?.totalBytes} ≥ the pool's ${bytes} bytes`);
    const top = t.alloc.functions[0];
    assert.ok(top && WORKER_FUNCTIONS.has(top.name) && top.url.endsWith('pool-worker.js'), `${t.id}: top allocator ${JSON.stringify(top)}`);
    const own = t.alloc.functions.filter((f) => WORKER_FUNCTIONS.has(f.name) && f.url.endsWith('pool-worker.js')).reduce((s, f) => s + f.selfBytes, 0);
    assert.equal(own, bytes, `${t.id}: the pool's bytes are V8's`);
    if (withCpu) {
      assert.ok(t.cpu, `${t.id}: a CPU profile`);
      assert.ok(poolSamples(run, t.pid, t.threadId!) >= 20, `${t.id}: V8's profile of the thread has the pool's work`);
    }
  }
  return pid;
}

/** Each isolate of `pid` that printed a timed GC line. */
function gcIsolates(run: string, pid: number): Set<string> {
  const isolates = new Set<string>();
  for (const m of readFileSync(join(run, 'gc-trace.log'), 'utf8').matchAll(/^\[(\d+):(0x[0-9a-f]+)\]\s+\d+ ms: /gm)) if (Number(m[1]) === pid) isolates.add(m[2]!);
  return isolates;
}

describe('a pool of worker threads waiting in Atomics.wait', () => {
  for (const node of NODES) {
    it(`${node.label}: through npm start, each worker's CPU profile, GC and allocations are in the run; launched directly, its allocations too`, { timeout: 150_000 }, async () => {
      const dir = join(tempDir(), 'pool');
      cpSync(FIXTURE, dir, { recursive: true });
      // npm and the `node` of its script: this Node.
      const env = node.path === 'node' ? {} : { PATH: `${dirname(node.path)}:${process.env.PATH ?? ''}` };

      const viaNpm = join(dir, 'npm-run');
      const r = await runCli(['profile', '--node', node.path, '--out', viaNpm, '--', 'npm', 'start'], { cwd: dir, env, timeoutMs: 120_000 });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /pool done: 120 tasks/);
      assert.match(r.stderr, /^v8-lens: npm start starts Node itself, so the flags go through NODE_OPTIONS: this run collects the CPU profile, the GC trace and the allocations of every thread/m);
      const summary = readSummary(viaNpm);
      const pid = checkWorkers(viaNpm, summary, true);
      // V8 traced the workers' isolates too (the trace was switched on in-process, before they started).
      assert.ok(gcIsolates(viaNpm, pid).size >= 3, `the app's main thread and both workers in the GC trace: ${[...gcIsolates(viaNpm, pid)].join(', ')}`);

      const direct = join(dir, 'direct-run');
      const d = await runCli(['profile', '--node', node.path, '--out', direct, '--', join(dir, 'app.js')], { cwd: dir, timeoutMs: 120_000 });
      assert.equal(d.code, 0, d.stderr);
      checkWorkers(direct, readSummary(direct), true);
    });
  }
});
