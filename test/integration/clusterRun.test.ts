/**
 * A 3-worker cluster profiled under load through the real CLI: every process gets its own figures,
 * and the run's figures are the sum of theirs, held against V8's own account of the same run (the
 * `--trace-gc` lines, prefixed `[pid:isolate]`, and each process's raw code trace). The whole run's
 * GC share lies within the processes' own shares: a sum of pauses over one window said 22% for a
 * cluster whose workers were each at 6–9%.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Summary } from '../../src/shared/model/summary';
import { NODES, REPO, readSummary, runCli, tempDir } from './cliHarness';
import { assertReadWhole } from './v8Account';

const CLUSTER = join(REPO, 'examples', 'cluster-service', 'server.js');

/** Per pid: GC lines and their pause total, straight from V8's trace lines. */
/**
 * V8's GC lines per pid, and apart from them the ones V8 ran because V8 Lens's allocation sampler
 * stopped (reason "sampling profiler"), which V8 Lens leaves out of the app's figures.
 */
function v8GcByPid(traceFile: string): Map<number, { events: number; pauseMs: number; sampler: number }> {
  const byPid = new Map<number, { events: number; pauseMs: number; sampler: number }>();
  for (const m of readFileSync(traceFile, 'utf8').matchAll(/^\[(\d+):0x[0-9a-f]+\]\s+\d+ ms: .*?MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms.*$/gm)) {
    const pid = Number(m[1]);
    const entry = byPid.get(pid) ?? { events: 0, pauseMs: 0, sampler: 0 };
    if (/\) sampling profiler; /.test(m[0])) entry.sampler++;
    else {
      entry.events++;
      entry.pauseMs += Number(m[2]);
    }
    byPid.set(pid, entry);
  }
  return byPid;
}

/**
 * Bailouts in a process's own raw code trace (V8's --trace-deopt-verbose), leaving V8 Lens's preload
 * out. Not only at line starts: V8 writes the head of a "marking dependent code" line to the trace and
 * its tail to stdout, so the next record follows on the same line.
 */
function v8Bailouts(traceFile: string): number {
  const records = readFileSync(traceFile, 'utf8').split('[bailout (kind: ').slice(1);
  return records.filter((r) => !/;;; deoptimize at <[^>]*preload\.js:/.test(r)).length;
}

for (const node of NODES) {
  describe(`a 3-worker cluster under load (examples/cluster-service, ${node.label})`, () => {
    let out: string;
    let summary: Summary;
    let stdout: string;
    before(async () => {
      out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--out', out, '--url', 'auto', '--duration', '3', '--warmup', '1', '--connections', '8', '--', CLUSTER], { timeoutMs: 120_000 });
      assert.equal(r.code, 0, r.stderr);
      stdout = r.stdout;
      summary = readSummary(out);
    });

    it('lists the primary and its 3 workers, each with its own CPU profile and GC', () => {
      const processes = summary.processes!;
      assert.deepEqual(processes.map((p) => p.role).sort(), ['primary', 'worker', 'worker', 'worker']);
      const primary = processes.find((p) => p.role === 'primary')!;
      for (const w of processes.filter((p) => p.role === 'worker')) {
        assert.equal(w.parentPid, primary.pid);
        assert.equal(w.threadId, 0);
        assert.ok(w.cpu && w.cpu.sampledMs > 0 && w.cpu.idleShare < 1, `a CPU profile of its own: ${JSON.stringify(w.cpu)}`);
        assert.ok(w.gc && w.gc.eventCount > 0, `it collected garbage under load: ${JSON.stringify(w.gc?.byType)}`);
      }
      assert.equal(summary.cpu!.profiles.length, 4);
      assert.match(stdout, /Processes and threads: 4\n/);
    });

    it("each process's GC equals V8's own lines for its pid, and the run's is their sum", () => {
      const v8 = v8GcByPid(join(out, 'gc-trace.log'));
      let events = 0;
      let sampler = 0;
      for (const p of summary.processes!) {
        const own = v8.get(p.pid) ?? { events: 0, pauseMs: 0, sampler: 0 };
        assert.equal(p.gc?.eventCount ?? 0, own.events, `pid ${p.pid}`);
        assert.ok(Math.abs((p.gc?.totalPauseMs ?? 0) - own.pauseMs) < 0.01, `pid ${p.pid}: ${p.gc?.totalPauseMs} vs ${own.pauseMs}`);
        events += own.events;
        sampler += own.sampler;
      }
      assert.equal(summary.gc!.eventCount, events);
      assert.equal(summary.gc!.causedByV8Lens?.events ?? 0, sampler, 'the sampler\'s GCs, one per process that sampled, apart');
      // Every GC line V8 printed was read, the primary's and every worker's.
      assertReadWhole(summary, 'gcLines', events + sampler);
    });

    it("the run's GC share is a true share: within the processes' own, never their sum", () => {
      const shares = summary.processes!.map((p) => p.gc!.wallShare);
      const gc = summary.gc!;
      assert.ok(gc.wallShare >= Math.min(...shares) && gc.wallShare <= Math.max(...shares), `${gc.wallShare} within ${shares}`);
      assert.ok(Math.abs(gc.wallMs - summary.processes!.reduce((n, p) => n + p.gc!.wallMs, 0)) < 1, 'over their wall times added up');
      const window = summary.load!.gcInWindow!;
      const windowShares = window.processes!.map((p) => p.wallShare);
      assert.ok(window.processes!.length >= 3, 'the workers collected garbage in the window');
      assert.ok(window.wallShare <= Math.max(...windowShares) && window.wallShare > 0, `window share ${window.wallShare} within ${windowShares}`);
      assert.equal(window.events, window.processes!.reduce((n, p) => n + p.events, 0), 'GC per 1k requests counts every worker');
    });

    it("each process's deopts are the bailouts of its own raw code trace, and every one is named", () => {
      assert.equal(summary.deoptCoverage, 'collected');
      for (const p of summary.processes!) {
        assert.equal(p.deoptCount, v8Bailouts(join(out, 'v8', `code-${p.pid}-0.asm`)), `pid ${p.pid}`);
      }
      const ids = new Set(summary.processes!.map((p) => p.id));
      for (const d of summary.deopts) {
        assert.ok(d.processes!.length > 0 && d.processes!.every((id) => ids.has(id)), JSON.stringify(d));
        assert.notEqual(d.function, '(unknown)', JSON.stringify(d));
      }
    });

    it('the young generation is the largest any process reached', () => {
      const largest = Math.max(...summary.processes!.map((p) => p.gc!.semiSpaceMB ?? 0));
      assert.equal(summary.gc!.semiSpaceMB, largest);
      assert.equal(summary.gc!.youngGeneration!.collector, 'Scavenger');
    });
  });
}
