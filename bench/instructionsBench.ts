/**
 * The work each preset adds to its target, as instructions counted by valgrind (cachegrind without
 * its cache model): a count that this VM's noise cannot hide, where the allocation-heavy script's
 * time moves ±10% from run to run (issue 20, item 5). Two pairs, each on the allocation-heavy
 * script with no work (start-up and exit) and with BENCH_INSTRUCTIONS_WORK iterations:
 * `node --cpu-prof` and the default preset, `node --trace-gc` and the GC-only preset. The V8 Lens
 * arms go through the real CLI, which starts its target through `--node <a wrapper>` that runs
 * valgrind only for the target's launch (its own version probes run plain). The work's own
 * instructions are (with work) − (no work); a figure is the median of BENCH_INSTRUCTIONS_RUNS runs.
 * Every arm runs with V8's `--single-threaded` (below), so a count is a count of work, not of luck.
 * Under valgrind a program runs some 50 times slower, so what is driven by the clock (the CPU
 * profiler's 1 ms ticks) counts 50 times as much per unit of work, alike in both arms of a pair;
 * the CLI beside the target is not counted at all (its CPU is in the README, from perf stat).
 * Needs valgrind (Debian: apt-get install valgrind); without it the figures say "not measured".
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { median } from '../src/core/util/stats';
import { report } from './measure';
import { tempDir } from '../scripts/tempDirs';

const CLI = join(__dirname, '..', 'dist', 'cli.js');
const PROGRAM = join(__dirname, 'programs', 'alloc-work.js');
const WORK = Number(process.env.BENCH_INSTRUCTIONS_WORK ?? 2_000_000);
/**
 * V8's compiler and GC helper threads off, in both arms of a pair: with them, when optimized code
 * arrives depends on how valgrind schedules the threads, and the same run counted 2.5 to 5.8 G
 * instructions; without them, the same to 0.3%.
 */
const DETERMINISTIC = '--single-threaded';
const VALGRIND = ['--tool=cachegrind', '--cache-sim=no', '--smc-check=all-non-file', '--cachegrind-out-file=/dev/null'];

type Arm = { name: string; node: string[] } | { name: string; preset: string };
const PAIRS: Array<[Arm, Arm, string]> = [
  [{ name: 'node --cpu-prof', node: ['--cpu-prof'] }, { name: 'default preset', preset: 'cpu-gc-deopts' }, 'default preset vs `node --cpu-prof`'],
  [{ name: 'node --trace-gc', node: ['--trace-gc'] }, { name: 'GC-only preset', preset: 'gc' }, 'GC-only preset vs `node --trace-gc`'],
];

export async function benchInstructions(runs: number): Promise<void> {
  const probe = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    console.log('  instructions: not measured: valgrind is not installed (Debian: apt-get install valgrind)');
    return;
  }
  const dir = tempDir('v8-lens-instructions-');
  const logs = join(dir, 'valgrind');
  mkdirSync(logs);
  // The CLI's --node: valgrind for the target's launch (the only one with our preload), plain Node for the rest.
  const wrapper = join(dir, 'node');
  writeFileSync(
    wrapper,
    `#!/bin/sh\ncase " $* " in *" --require "*) exec valgrind ${VALGRIND.join(' ')} --log-file='${logs}/%p.log' '${process.execPath}' ${DETERMINISTIC} "$@";; esac\nexec '${process.execPath}' "$@"\n`,
  );
  chmodSync(wrapper, 0o755);
  let serial = 0;

  /** Instructions of one run of every process valgrind watched (a target's children too). */
  const count = (arm: Arm, iterations: number): number => {
    for (const f of readdirSync(logs)) rmSync(join(logs, f));
    const out = join(dir, `run-${serial++}`);
    const r =
      'preset' in arm
        ? spawnSync(process.execPath, [CLI, 'profile', '--preset', arm.preset, '--node', wrapper, '--out', out, '--', PROGRAM, String(iterations)], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 })
        : spawnSync('valgrind', [...VALGRIND, `--log-file=${logs}/%p.log`, process.execPath, DETERMINISTIC, ...arm.node, ...(arm.node.includes('--cpu-prof') ? [`--cpu-prof-dir=${out}`] : []), PROGRAM, String(iterations)], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
    if (!/bench-work-done/.test(r.stdout)) throw new Error(`instructions: ${arm.name} did not finish its work: ${(r.stderr || r.stdout).slice(-400)}`);
    let total = 0;
    let seen = 0;
    for (const f of readdirSync(logs)) {
      const m = /I\s+refs:\s+([\d,]+)/.exec(readFileSync(join(logs, f), 'utf8'));
      if (!m) throw new Error(`instructions: valgrind's log ${f} of ${arm.name} has no count`);
      total += Number(m[1]!.replace(/,/g, ''));
      seen++;
    }
    if (seen === 0) throw new Error(`instructions: valgrind counted nothing for ${arm.name}`);
    rmSync(out, { recursive: true, force: true });
    return total;
  };

  const M = (n: number) => `${(n / 1e6).toFixed(1)} M`;
  const range = (v: number[]) => `[${M(Math.min(...v))}–${M(Math.max(...v))}]`;
  console.log(`instructions (valgrind), ${runs} runs of each arm, the allocation-heavy script with no work and with ${WORK.toLocaleString('en-US')} iterations`);
  for (const [base, arm, what] of PAIRS) {
    const before = loadavg()[0]!;
    const t: Record<string, { idle: number[]; work: number[] }> = { [base.name]: { idle: [], work: [] }, [arm.name]: { idle: [], work: [] } };
    // Alternating, so a drift (a newer file cache, a busier machine) meets both arms alike.
    for (let i = 0; i < runs; i++) {
      for (const a of i % 2 === 0 ? [base, arm] : [arm, base]) {
        t[a.name]!.idle.push(count(a, 0));
        t[a.name]!.work.push(count(a, WORK));
      }
    }
    const idle = (a: Arm) => median(t[a.name]!.idle);
    const perWork = (a: Arm) => t[a.name]!.work.map((w, i) => w - t[a.name]!.idle[i]!);
    for (const a of [base, arm]) console.log(`  ${a.name.padEnd(18)} no work ${M(idle(a))} ${range(t[a.name]!.idle)}   the work's own ${M(median(perWork(a)))} ${range(perWork(a))}`);
    const load: [number, number] = [before, loadavg()[0]!];
    report({
      what: `instructions at start-up and exit: ${what} (the allocation-heavy script with no work, ${runs} runs)`,
      baseline: `${base.name} ${M(idle(base))} ${range(t[base.name]!.idle)}`,
      result: `${M(idle(arm))} ${range(t[arm.name]!.idle)}: **${M(idle(arm) - idle(base))} more**`,
      target: 'none (the README quotes it)',
      met: null,
      untimed: true,
      load,
    });
    const extra = ((median(perWork(arm)) - median(perWork(base))) / median(perWork(base))) * 100;
    report({
      what: `instructions of the work itself: ${what} (${WORK.toLocaleString('en-US')} iterations of the allocation-heavy script, ${runs} runs)`,
      baseline: `${base.name} ${M(median(perWork(base)))} ${range(perWork(base))}`,
      result: `${M(median(perWork(arm)))} ${range(perWork(arm))}: **${extra >= 0 ? '+' : ''}${extra.toFixed(2)}%**`,
      target: 'none (the README quotes it)',
      met: null,
      untimed: true,
      load,
    });
  }
}
