/**
 * A fastify service with a piscina pool of 2 worker threads (test/fixtures/apps/worker-pool), profiled
 * under load through the real CLI on /hash at a fixed 300 req/s: the workers spend most of their life
 * blocked in piscina's Atomics.wait loop. Held against accounts V8 Lens does not make:
 *  - each thread's CPU time as Linux counts it, read by this test from /proc/<pid>/task/<tid>/schedstat
 *    every 50 ms while the target runs (the last reading before the thread ended);
 *  - the main thread's GC pause from V8's own --trace-gc lines of its isolate (the isolate this test
 *    proves oldest from the lines' order and clocks), over its own wall time from V8's .cpuprofile.
 * Linux only (/proc); on every Node of NODES.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Summary } from '../../src/shared/model/summary';
import type { GateResult } from '../../src/core/gate/gateTypes';
import { buildReportModel } from '../../src/core/report/reportModel';
import { openingProcessId } from '../../src/shared/openingProcess';
import { collect, freePort, NODES, readSession, readSummary, REPO, runCli, startCli, tempDir } from './cliHarness';

const APP = join(REPO, 'test', 'fixtures', 'apps', 'worker-pool');
const LINUX = process.platform === 'linux';
const GO = ['/usr/lib/go/bin/go', '/usr/bin/go', '/usr/local/go/bin/go'].find((p) => existsSync(p)) ?? null;

/** `go tool pprof -top` rows: flat value by function name (ms for cpu, a count for samples). */
function goTop(file: string, extra: string[]): Map<string, number> {
  const text = execFileSync(GO!, ['tool', 'pprof', '-top', '-nodecount=200', '-nodefraction=0', '-edgefraction=0', ...extra, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: tempDir('go-home-'), GOFLAGS: '' } });
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*([\d.]+)(?:ms|s)?\s+[\d.]+%\s+[\d.]+%\s+[\d.]+(?:ms|s)?\s+[\d.]+%\s+(.+)$/.exec(line);
    if (m) out.set(m[2]!.trim(), Number(m[1]));
  }
  return out;
}

/** Every thread of `pid` seen so far: its last CPU reading (ms on the CPU, from schedstat). */
function pollThreads(pid: () => number | null, into: Map<number, number>): () => void {
  const timer = setInterval(() => {
    const p = pid();
    if (p === null) return;
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const tid of tids) {
      try {
        into.set(Number(tid), Number(readFileSync(`/proc/${p}/task/${tid}/schedstat`, 'latin1').split(' ')[0]) / 1e6);
      } catch {
        // ended between the listing and the read
      }
    }
  }, 50);
  return () => clearInterval(timer);
}

interface TraceLine {
  isolate: string;
  timeMs: number;
  pauseMs: number;
}

/**
 * V8's --trace-gc lines of one pid, in the order V8 wrote them (its own pattern, not V8 Lens's
 * parser), with V8's reason: "sampling profiler" is the full GC V8 runs when V8 Lens's allocation
 * sampler stops, which is V8 Lens's and in no figure of the app's.
 */
function v8GcLines(traceFile: string, pid: number): (TraceLine & { reason: string })[] {
  const lines: (TraceLine & { reason: string })[] = [];
  const re = /^\[(\d+):(0x[0-9a-f]+)\]\s+(\d+) ms: .*?MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms .*?\) ([^;()]*);/gm;
  for (const m of readFileSync(traceFile, 'utf8').matchAll(re)) {
    if (Number(m[1]) === pid) lines.push({ isolate: m[2]!, timeMs: Number(m[3]), pauseMs: Number(m[4]), reason: m[5]!.trim() });
  }
  const timed = [...readFileSync(traceFile, 'utf8').matchAll(new RegExp(`^\\[${pid}:0x[0-9a-f]+\\]\\s+\\d+ ms: (Scavenge|Mark|Minor|Incremental)`, 'gm'))].length;
  assert.equal(lines.length, timed, 'every GC line of the pid was read');
  return lines;
}

/**
 * Whether isolate `a` was provably created before `b`: a line of `a` at its own time tA written
 * before a line of `b` at tB means birth(b) − birth(a) ≥ tA − tB; one such pair above 0 proves it.
 */
function provablyOlder(lines: readonly TraceLine[], a: string, b: string): boolean {
  let latestA = -Infinity;
  for (const l of lines) {
    if (l.isolate === a) latestA = Math.max(latestA, l.timeMs);
    else if (l.isolate === b && latestA - l.timeMs > 0) return true;
  }
  return false;
}

function profileWallMs(file: string): number {
  const p = JSON.parse(readFileSync(file, 'utf8')) as { startTime: number; endTime: number };
  return (p.endTime - p.startTime) / 1000;
}

for (const node of NODES) {
  describe(`a piscina pool of 2 waiting workers under load (worker-pool, ${node.label})`, { skip: LINUX ? false : 'reads /proc (Linux only)' }, () => {
    let out: string;
    let summary: Summary;
    let stdout: string;
    const procCpu = new Map<number, number>();
    let pid: number | null = null;

    before(async () => {
      out = join(tempDir(), 'run');
      const port = await freePort();
      const child = startCli(
        ['profile', '--node', node.path, '--out', out, '--url', `http://127.0.0.1:${port}/hash`, '--rate', '300', '--connections', '4', '--warmup', '1', '--duration', '4', '--', join(APP, 'app.js')],
        { env: { PORT: String(port) } },
      );
      const stop = pollThreads(() => {
        if (pid === null && existsSync(join(out, 'session.json'))) {
          try {
            pid = readSession(out).pid ?? null;
          } catch {
            // being written
          }
        }
        return pid;
      }, procCpu);
      const r = await collect(child, 150_000);
      stop();
      assert.equal(r.code, 0, r.stderr);
      stdout = r.stdout;
      summary = readSummary(out);
    });

    it("gives each worker thread its own CPU time, within 10% of /proc's for the same thread", () => {
      const workers = summary.processes!.filter((p) => p.role === 'worker thread');
      assert.equal(workers.length, 2, JSON.stringify(summary.processes!.map((p) => p.id)));
      for (const w of workers) {
        const cpu = w.cpu!;
        assert.ok(cpu.tid != null && cpu.tid !== pid, `a thread of its own: ${JSON.stringify(cpu)}`);
        const proc = procCpu.get(cpu.tid);
        assert.ok(proc !== undefined, `tid ${cpu.tid} is one of the process's tasks (${[...procCpu.keys()].join(', ')})`);
        console.log(`# ${node.label}: worker ${w.id} (tid ${cpu.tid}): V8 Lens ${cpu.threadCpuMs} ms (${cpu.threadCpuSource}), /proc ${proc.toFixed(1)} ms; wall ${cpu.wallMs} ms; waiting ${cpu.waitingShare}`);
        assert.ok(cpu.threadCpuMs !== null && cpu.threadCpuMs !== undefined);
        assert.ok(Math.abs(cpu.threadCpuMs - proc) <= 0.1 * proc, `${cpu.threadCpuMs} ms vs /proc ${proc} ms`);
        // A pool worker waits most of its life: far less CPU than wall time, most of its profile waiting.
        assert.ok(cpu.threadCpuMs < 0.5 * cpu.wallMs!, `${cpu.threadCpuMs} ms on the CPU in ${cpu.wallMs} ms`);
        assert.ok(cpu.waitingShare! > 0.5, `waiting ${cpu.waitingShare}`);
      }
      const main = summary.processes!.find((p) => p.role === 'main')!;
      const proc = procCpu.get(main.pid)!;
      console.log(`# ${node.label}: main thread: V8 Lens ${main.cpu!.threadCpuMs} ms, /proc ${proc.toFixed(1)} ms`);
      assert.ok(Math.abs(main.cpu!.threadCpuMs! - proc) <= 0.1 * proc, `main: ${main.cpu!.threadCpuMs} vs ${proc}`);
    });

    it('says so in the process table: "N% CPU (… of …) · M% waiting"', () => {
      assert.match(stdout, /worker thread\s+\d+\/\d+\s+\d+(\.\d)?% CPU \([\d.]+ (ms|s) of [\d.]+ s\) · \d+% waiting/);
    });

    it('leaves atomicsWaitLoop out of the hot functions, the lines and the gate, and says it waited', async () => {
      const cpu = summary.cpu!;
      assert.equal(cpu.functions.some((f) => f.name === 'atomicsWaitLoop'), false);
      assert.deepEqual(cpu.waiting?.map((w) => w.name), ['atomicsWaitLoop']);
      assert.ok(cpu.waitingMs! > 0.5 * (cpu.durationMs - cpu.pseudo.idleMs), `waiting ${cpu.waitingMs} ms of ${cpu.durationMs} ms`);
      assert.equal(cpu.lines.some((l) => l.url.endsWith('/piscina/dist/worker.js') && l.selfMs > 0.05 * cpu.waitingMs!), false, 'no line heat from the wait');
      const table = stdout.slice(stdout.indexOf('self ms'), stdout.indexOf('Hottest line'));
      assert.doesNotMatch(table, /atomicsWaitLoop/);
      assert.match(stdout, /waiting, off the CPU \(threads blocked in Atomics\.wait\), in no function below: [\d.]+ s in atomicsWaitLoop/);
      const gate = await runCli(['compare', out, out, '--fail-on', 'cpu.self:+10%', '--json'], { timeoutMs: 60_000 });
      const result = JSON.parse(gate.stdout) as GateResult;
      const names = result.checks.map((c) => c.function?.name);
      assert.ok(names.includes('hashTask') || names.includes('onMessage'), `the pool's own work is held: ${names.join(', ')}`);
      assert.equal(names.includes('atomicsWaitLoop'), false, names.join(', '));
    });

    it('its pprof export: the waiting samples keep their count under state=waiting, with no CPU time (go tool pprof)', { skip: GO ? false : 'go tool pprof not found' }, async () => {
      const file = join(tempDir(), 'cpu.pb.gz');
      const r = await runCli(['export', out, '--pprof', file]);
      assert.equal(r.code, 0, r.stderr);
      const cpu = goTop(file, ['-unit=ms']);
      assert.ok(cpu.size > 5, `go tool pprof -top lists the functions: ${[...cpu.keys()].slice(0, 5).join(', ')}`);
      assert.equal(cpu.get('atomicsWaitLoop') ?? 0, 0, 'no CPU time for the wait');
      const waiting = goTop(file, ['-sample_index=samples', '-tagfocus=state=waiting']);
      const samples = waiting.get('atomicsWaitLoop') ?? 0;
      const v8Samples = summary.cpu!.waiting![0]!.selfMs / summary.cpu!.sampleIntervalMs;
      assert.ok(samples > 0.5 * v8Samples, `the waiting samples are there, labelled: ${samples} (about ${v8Samples.toFixed(0)} by the summary)`);
      assert.equal([...waiting.entries()].filter(([, n]) => n > 0).map(([name]) => name).join(','), 'atomicsWaitLoop', 'only the wait carries the label');
    });

    it("the run-level GC share is the main thread's own pause over its own wall time (V8's lines and profile)", () => {
      const main = summary.processes!.find((p) => p.role === 'main')!;
      const lines = v8GcLines(join(out, 'gc-trace.log'), main.pid);
      const isolates = [...new Set(lines.map((l) => l.isolate))];
      const mainIsolate = summary.gc!.isolate!.isolate;
      for (const other of isolates.filter((i) => i !== mainIsolate)) {
        assert.ok(provablyOlder(lines, mainIsolate, other), `${mainIsolate} (V8 Lens's main) was created before ${other}`);
        assert.equal(provablyOlder(lines, other, mainIsolate), false);
      }
      const pauseMs = lines.filter((l) => l.isolate === mainIsolate && l.reason !== 'sampling profiler').reduce((n, l) => n + l.pauseMs, 0);
      const wallMs = profileWallMs(join(out, 'cpu', main.cpu!.profile));
      const own = pauseMs / wallMs;
      console.log(`# ${node.label}: main thread GC ${pauseMs.toFixed(2)} ms / ${wallMs.toFixed(0)} ms = ${(own * 100).toFixed(3)}%; V8 Lens ${(summary.gc!.wallShare * 100).toFixed(3)}% (${summary.gc!.shareOf?.label})`);
      assert.ok(Math.abs(summary.gc!.wallShare - own) <= 0.001, `${summary.gc!.wallShare} vs ${own}`);
      assert.ok(Math.abs(main.gc!.wallShare - own) <= 0.001, `its row: ${main.gc!.wallShare} vs ${own}`);
      assert.deepEqual(summary.gc!.shareOf?.processes, [main.id]);
      // Worker rows: a share over the worker's own life (its profile's length), not over a stale record's few ms.
      for (const w of summary.processes!.filter((p) => p.role === 'worker thread' && p.gc)) {
        const wall = profileWallMs(join(out, 'cpu', w.cpu!.profile));
        assert.ok(w.gc!.wallMs >= wall && w.gc!.wallMs <= wall * 1.1, `worker ${w.id}: ${w.gc!.wallMs} ms vs its profile's ${wall} ms`);
      }
      // Under load: the window's share is the main thread's own figure in the window.
      const window = summary.load!.gcInWindow!;
      const mainInWindow = window.processes!.find((p) => p.isolate === mainIsolate);
      assert.ok(window.shareOf && mainInWindow, JSON.stringify(window));
      assert.ok(Math.abs(window.wallShare - mainInWindow.wallShare) <= 0.001, `${window.wallShare} vs ${mainInWindow.wallShare}`);
    });

    it('the report opens on the main thread, the busiest by on-CPU time', async () => {
      const model = await buildReportModel(out);
      const opening = openingProcessId((model.processes ?? []).map((v) => ({ id: v.id, process: v.process, hasProfile: Boolean(v.timeProfile) })));
      assert.equal(opening, String(summary.processes!.find((p) => p.role === 'main')!.pid));
    });
  });
}
