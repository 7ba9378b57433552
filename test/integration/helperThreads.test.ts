/**
 * GC's time on V8's helper threads (issue 23): with `--gc-phases` V8 Lens reads every GC's
 * `background.*` phases from --trace-gc-nvp (Node 26's JSON too) and its figure is V8's own account,
 * to the hundredth of a ms. It is held against the kernel's: the program reads its own threads' CPU
 * at its end (/proc/self/task/<tid>/schedstat). The helpers also compile: here compilation stays on
 * the main thread (--no-concurrent-recompilation, which Maglev follows too), and a control run with
 * --single-threaded-gc (no GC on the helpers at all, up to Node 24) measures what they do besides GC,
 * which is taken off (Node 26 still scavenges on a worker thread then: explicit below).
 *
 * The bound reached: V8's phases are the wall time of its scopes on the helper threads, fetched at
 * each GC's pause (concurrent sweeping after a Mark-Compact is in no line). On this 2-core machine
 * shared with other work (load average 6-9 while this was written) the helpers wait for a core inside
 * their scopes: V8's figure was 1.2× to 4.8× their GC CPU, never below 0.8×. So it is checked as a
 * lower bound (≥ 80% of the helpers' GC CPU) and said beside the CPU figure, not as the CPU itself.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODES, PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';

const PROGRAM = join(PROGRAMS, 'gc-helpers.js');

interface Threads {
  pid: number;
  threads: { tid: number; comm: string; cpuMs: number }[];
}

/** The program's own reading of its threads' CPU (the THREADS line it prints on stderr). */
function threadsOf(stderr: string): Threads {
  const line = /^THREADS (\{.*\})$/m.exec(stderr);
  assert.ok(line, `the program printed its threads: ${stderr.slice(-400)}`);
  return JSON.parse(line[1]!) as Threads;
}

/** CPU of every thread but the main one: V8's platform workers (named "V8Worker"/"node-V8Worker" from Node 24, "node" before) and a few idle ones (the delayed-task and signal threads). */
function helperCpuMs(t: Threads): number {
  return t.threads.filter((x) => x.tid !== t.pid).reduce((n, x) => n + x.cpuMs, 0);
}

/** V8's own sum of every GC line's background.* phases, either form. */
function v8Background(trace: string): { ms: number; lines: number } {
  let ms = 0;
  let lines = 0;
  for (const line of trace.split('\n')) {
    const json = / ms: GC: (\{.*\})$/.exec(line);
    const pairs: [string, unknown][] = json ? Object.entries(JSON.parse(json[1]!) as Record<string, unknown>) : / ms: pause=/.test(line) ? [...line.matchAll(/([a-z_.]+)=([\d.]+)/g)].map((m) => [m[1]!, Number(m[2])]) : [];
    if (pairs.length === 0) continue;
    lines++;
    for (const [k, v] of pairs) if (k.startsWith('background.') && typeof v === 'number') ms += v;
  }
  return { ms, lines };
}

async function run(nodePath: string, extra: string[]): Promise<{ out: string; threads: Threads }> {
  const out = join(tempDir(), 'run');
  const r = await runCli(['profile', '--node', nodePath, '--preset', 'gc', '--gc-phases', '--v8-flag=--no-concurrent-recompilation', ...extra, '--out', out, '--', PROGRAM], { timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.stderr);
  return { out, threads: threadsOf(r.stderr) };
}

describe("GC on V8's helper threads", () => {
  for (const node of NODES) {
    it(`${node.label}: V8 Lens's helper time is V8's own account, and at least 80% of the helpers' GC CPU by /proc`, { timeout: 120_000 }, async (t) => {
      const normal = await run(node.path, []);
      const control = await run(node.path, ['--v8-flag=--single-threaded-gc']);

      // V8 Lens's figure is V8's account, line for line.
      const summary = readSummary(normal.out);
      const helpers = summary.gc?.helperThreads;
      assert.ok(helpers, 'a --gc-phases run has the helpers\' time');
      const v8 = v8Background(readFileSync(join(normal.out, 'gc-trace.log'), 'utf8'));
      assert.equal(helpers.events, v8.lines);
      assert.ok(Math.abs(helpers.ms - v8.ms) < 0.01, `${helpers.ms} vs V8's ${v8.ms}`);
      assert.ok((helpers.byPhase.scavenge ?? 0) > 0, 'the scavenger worked in parallel');

      const quiet = readSummary(control.out).gc?.helperThreads;
      assert.ok(quiet);
      let residual: number;
      if (node.major < 26) {
        // Without GC on the helpers, V8 prints no background phase, and what the helpers still do is small.
        assert.equal(quiet.ms, 0);
        residual = helperCpuMs(control.threads);
      } else {
        // V8 14.6 runs the scavenge job on a worker thread even with --single-threaded-gc (the main
        // thread waits; its own scavenge.parallel is 0): the control run's GC is on the helpers too,
        // and its phases cover their CPU the same way. Their other work cannot be isolated here (on
        // Node 20-24 it was under 2 ms): none is taken off.
        assert.ok(quiet.ms >= 0.8 * helperCpuMs(control.threads), `single-threaded: V8's ${quiet.ms} ms, the helpers' CPU ${helperCpuMs(control.threads)} ms`);
        residual = 0;
      }
      const helpersCpu = helperCpuMs(normal.threads);
      const gcCpu = helpersCpu - residual;
      t.diagnostic(`helpers' CPU ${helpersCpu.toFixed(1)} ms, ${residual.toFixed(1)} ms of it not GC (control run); V8's helper scopes ${helpers.ms.toFixed(1)} ms: × ${(helpers.ms / gcCpu).toFixed(2)}`);
      assert.ok(residual < 0.1 * helpersCpu + 5, `the helpers did ${residual} ms without GC work`);
      assert.ok(gcCpu > 5, `the helpers spent ${gcCpu} ms of CPU on GC`);
      assert.ok(helpers.ms >= 0.8 * gcCpu, `V8's helper scopes ${helpers.ms} ms, the helpers' GC CPU ${gcCpu} ms`);

      // The text report says both figures' nature.
      const text = await runCli(['report', normal.out]);
      assert.match(text.stdout, /GC CPU: [\d.,]+ ms on the main thread \+ [\d.,]+ ms on helper threads/);
    });
  }
});
