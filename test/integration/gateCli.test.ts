/**
 * The regression gate through the real CLI on real runs (issue 15): `v8-lens compare --fail-on`
 * exits 1 when one function became 2× slower and 0 on two sets of runs of the same unchanged
 * program, several rounds each (interleaved, as the lab runs them, so a machine that gets busier
 * weighs on both sides); its Markdown goes to stdout and --summary, its JSON has every figure.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { GateResult } from '../../src/core/gate/gateTypes';
import { NODES, PROGRAMS, runCli, tempDir } from './cliHarness';

const PROGRAM = join(PROGRAMS, 'gate-target.js');
const ROUNDS = 4;
const RULES = 'cpu.self:+10%,cpu.busy:+10%,gc.pauseMs:+20%';

describe('v8-lens compare --fail-on (the regression gate)', () => {
  const dir = tempDir('v8-lens-gate-');
  const side = (name: string) => join(dir, name);

  before(async () => {
    // Interleaved: base, slower, same, base, slower, same, …
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, env] of [['base', {}], ['slower', { GATE_SLOWER: '1' }], ['same', {}]] as const) {
        const r = await runCli(['profile', '--preset', 'cpu-gc', '--out', join(side(name), `r${round}`), '--', PROGRAM], { env });
        assert.equal(r.code, 0, r.stderr);
      }
    }
  });

  it('fails (exit 1) when one function became 2× slower, naming it first, with the test that told it from noise', { timeout: 60_000 }, async () => {
    const summaryFile = join(dir, 'job-summary.md');
    writeFileSync(summaryFile, '# earlier steps\n');
    const r = await runCli(['compare', side('base'), side('slower'), '--fail-on', RULES, '--summary', summaryFile]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^### V8 Lens regression gate: ❌ \*\*FAIL\*\*: \d+ of \d+ checks broken/);
    const firstRow = r.stdout.split('\n').find((l) => l.startsWith('| `'))!;
    assert.match(firstRow, /^\| `cpu\.self` hotLoop gate-target\.js:7 \| [\d.]+ ms \(median of 4\) \| [\d.]+ ms \(median of 4\) \| \+\d+\.\d% \| \+10% \| ❌ \*\*broken\*\* \| beyond the limit: Mann-Whitney U p = 0\.029/);
    assert.match(r.stderr, /gate: FAIL/);
    const summary = readFileSync(summaryFile, 'utf8');
    assert.ok(summary.startsWith('# earlier steps\n### V8 Lens regression gate: ❌'), 'the table is appended to the job summary');
    for (const name of ['hashStrings', 'lightWork']) {
      const row = r.stdout.split('\n').find((l) => l.includes(` ${name} `));
      assert.ok(row && !row.includes('broken'), `${name}, untouched, is not broken: ${row}`);
    }
  });

  it('passes (exit 0) on two sets of runs of the same program; the JSON has every run\'s value and verdict', { timeout: 60_000 }, async () => {
    const r = await runCli(['compare', side('base'), side('same'), '--fail-on', RULES, '--json']);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    const result = JSON.parse(r.stdout) as GateResult;
    assert.equal(result.verdict, 'pass');
    assert.equal(result.broken, 0);
    assert.equal(result.baseline.runs.length, ROUNDS);
    assert.deepEqual(result.rules, RULES.split(','));
    const hot = result.checks.find((c) => c.function?.name === 'hotLoop');
    assert.ok(hot, 'hotLoop is among the checked functions');
    assert.equal(hot.baseline.values.length, ROUNDS);
    assert.ok(hot.baseline.values.every((v) => v !== null && v > 10), JSON.stringify(hot.baseline.values));
    assert.ok(['pass', 'noise'].includes(hot.verdict), `${hot.verdict}: ${hot.why}`);
    const gc = result.checks.find((c) => c.metric === 'gc.pauseMs')!;
    assert.ok(gc.verdict !== 'broken');
    assert.equal(result.checks.filter((c) => c.metric === 'cpu.busy').length, 1);
  });

  it('one run per side: still a verdict, and the output says there is no noise estimate', { timeout: 60_000 }, async () => {
    const r = await runCli(['compare', join(side('base'), 'r1'), join(side('slower'), 'r1'), '--fail-on', 'cpu.self:+10%']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /Noise: 1 vs 1 run: no run-to-run noise estimate, so each limit is held against the measured change/);
    assert.match(r.stdout, /hotLoop .*❌ \*\*broken\*\* \| beyond the limit; one run per side/);
  });

  it('a bad rule or a folder without runs is usage (exit 2), with one line', async () => {
    const bad = await runCli(['compare', side('base'), side('same'), '--fail-on', 'cpu.selff:+10%']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown figure 'cpu\.selff'/);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    const empty = tempDir('v8-lens-gate-empty-');
    const none = await runCli(['compare', empty, side('same'), '--fail-on', 'cpu.self:+10%']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /neither a run folder nor a folder of run folders/);
    assert.ok(existsSync(side('same')));
  });
});

/**
 * The gate fails closed (issue 22): a rule it could not measure, a run that crashed, inputs of
 * different kinds, repeated and duplicate rules, a zero baseline, and functions of a handful of
 * samples, each through the real CLI with its exit code.
 */
describe('the gate fails closed', () => {
  const dir = tempDir('v8-lens-gate-closed-');
  const run = (name: string) => join(dir, name);
  const profile = async (name: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = await runCli(['profile', ...args, '--out', run(name), '--', PROGRAM], { env });
    assert.equal(r.code, 0, r.stderr);
  };

  before(async () => {
    await profile('base', ['--preset', 'cpu-gc']);
    await profile('same', ['--preset', 'cpu-gc']);
    await profile('gc-only', ['--preset', 'gc']);
    // gate-target alone makes 0 or 1 scavenge a run (0 → 0.6 ms is growth from a zero baseline):
    // a GC rule meant to pass is held on runs with young garbage, whose pauses sum to the same
    // tens of ms in either preset.
    await profile('garbage', ['--preset', 'cpu-gc'], { GATE_GARBAGE: '1' });
    await profile('garbage-gc-only', ['--preset', 'gc'], { GATE_GARBAGE: '1' });
    const crash = await runCli(['profile', '--preset', 'cpu-gc', '--out', run('crashed'), '--', join(PROGRAMS, 'crash.js')]);
    assert.equal(crash.code, 1, 'the crash fixture fails');
    const exported = await runCli(['export', run('crashed'), '--pprof', run('short.pb.gz')]);
    assert.equal(exported.code, 0, exported.stderr);
  });

  it('a rule that measured nothing on a side (a CPU rule against a --preset gc run) fails (exit 1), not "PASS"', async () => {
    const r = await runCli(['compare', run('base'), run('gc-only'), '--fail-on', 'cpu.self:+10%,cpu.busy:+10%']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^### V8 Lens regression gate: ❌ \*\*FAIL\*\*: 2 rules measured nothing on a side/);
    assert.match(r.stdout, /\| `cpu\.self` \| – \| – \| – \| \+10% \| ⚠️ \*\*not measured\*\* \| not measured in the candidate: its run has a CPU profile \(a preset with cpu\) \|/);
    assert.match(r.stderr, /gate: FAIL, 0 of 2 checks broken; measured nothing: cpu\.self: not measured in the candidate/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  });

  it('--missing error makes it exit 2; --missing ignore passes (exit 0) and says the rules were not held', async () => {
    const error = await runCli(['compare', run('base'), run('gc-only'), '--fail-on', 'cpu.busy:+10%', '--missing', 'error']);
    assert.equal(error.code, 2, error.stderr);
    assert.match(error.stdout, /NOT MEASURED/);
    assert.match(error.stderr, /^v8-lens: gate: not measured: cpu\.busy: not measured in the candidate/);
    const ignore = await runCli(['compare', run('garbage'), run('garbage-gc-only'), '--fail-on', 'cpu.busy:+10%,gc.pauseMs:+500%', '--missing', 'ignore']);
    assert.equal(ignore.code, 0, ignore.stdout + ignore.stderr);
    assert.match(ignore.stdout, /not held \(--missing ignore\): the gate did not check them/);
    assert.match(ignore.stderr, /1 rule not measured, ignored as asked/);
    const bad = await runCli(['compare', run('base'), run('gc-only'), '--fail-on', 'cpu.busy:+10%', '--missing', 'maybe']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--missing is fail, error or ignore/);
  });

  it('a candidate that crashed is refused (exit 1) unless --allow-failed, which says it held it', async () => {
    const r = await runCli(['compare', run('base'), run('crashed'), '--fail-on', 'cpu.busy:+10%']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^v8-lens: the candidate has a run that did not finish \(crashed crashed\): its figures are not the program's; profile it again, or pass --allow-failed to hold it anyway\n$/);
    assert.equal(r.stdout, '', 'no verdict on a crashed run');
    const allowed = await runCli(['compare', run('base'), run('crashed'), '--fail-on', 'cpu.busy:+10%', '--allow-failed']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /Held anyway, as asked: --allow-failed: the candidate's crashed crashed held anyway\./);
  });

  it('a run against a short pprof is refused (exit 1) as not the same kind of input, unless --allow-mixed', async () => {
    const r = await runCli(['compare', run('base'), run('short.pb.gz'), '--fail-on', 'cpu.busy:+10%']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the baseline is a run folder and the candidate a pprof profile: not the same kind of input, so their figures do not compare; gate like with like, or pass --allow-mixed/);
    const allowed = await runCli(['compare', run('base'), run('short.pb.gz'), '--fail-on', 'cpu.busy:+10%', '--allow-mixed', '--json']);
    assert.ok(allowed.code === 0 || allowed.code === 1, allowed.stderr);
    assert.deepEqual((JSON.parse(allowed.stdout) as GateResult).accepted, ['--allow-mixed: the baseline is a run folder and the candidate a pprof profile']);
  });

  it('repeated --fail-on options add up; a figure given twice is usage (exit 2)', async () => {
    const r = await runCli(['compare', run('base'), run('same'), '--fail-on', 'cpu.busy:+50%', '--fail-on', 'gc.pauseMs:+500%', '--json']);
    assert.ok(r.code === 0 || r.code === 1, r.stderr); // one run a side of a shared machine: either verdict
    const result = JSON.parse(r.stdout) as GateResult;
    assert.deepEqual(result.rules, ['cpu.busy:+50%', 'gc.pauseMs:+500%']);
    assert.deepEqual(result.checks.map((c) => c.metric), ['cpu.busy', 'gc.pauseMs']);
    const twice = await runCli(['compare', run('base'), run('same'), '--fail-on', 'cpu.busy:+50%', '--fail-on', 'gc.pauseMs:+20%,cpu.busy:+5%']);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /cpu\.busy is given twice \(cpu\.busy:\+50% and cpu\.busy:\+5%\)/);
  });

  it('one run a side of the unchanged program: functions of a handful of samples are shown, not held, and counted', async () => {
    const r = await runCli(['compare', run('base'), run('same'), '--fail-on', 'cpu.self:+10%', '--json']);
    const result = JSON.parse(r.stdout) as GateResult;
    const small = result.checks.filter((c) => c.verdict === 'too-few-samples');
    assert.ok(small.length > 0, 'start-up and runtime functions of a few samples are among the top 20');
    assert.equal(result.tooFewSamples, small.length);
    for (const c of small) assert.match(c.why, /too few samples on both sides to tell a change/);
    // lightWork is ~20 ms (on the floor); these two are 80 ms and more.
    for (const name of ['hotLoop', 'hashStrings']) {
      assert.notEqual(result.checks.find((c) => c.function?.name === name)?.verdict, 'too-few-samples', `${name} has many samples: held`);
    }
    const md = await runCli(['compare', run('base'), run('same'), '--fail-on', 'cpu.self:+10%']);
    assert.match(md.stdout, new RegExp(`${small.length} functions? ha(s|ve) too few samples on both sides to tell a change`));
    // One sampled in the candidate only: its change is in ms, from 0, not a percentage of nothing.
    for (const row of md.stdout.split('\n').filter((l) => / \| 0 ms \| [\d.]+ ms \| /.test(l))) assert.match(row, /\| \+[\d.]+ ms \(from 0\) \|/, row);
  });

  // A young generation of 64 MB from the start: the program's few MB of start-up never fill it, so
  // no GC at all on any of the Nodes (16 of 16 runs); with GATE_GARBAGE, about 10 scavenges.
  const noGc = ['--semi-space', '64', '--v8-flag', '--min-semi-space-size=64'];
  for (const node of NODES) {
    it(`${node.label}: GC pause from 0 to some is held as absolute growth (exit 1), never "new" or +Infinity%`, { timeout: 60_000 }, async () => {
      const name = `zero-${node.major}`;
      await profile(`${name}-base`, ['--preset', 'cpu-gc', ...noGc, '--node', node.path]);
      await profile(`${name}-garbage`, ['--preset', 'cpu-gc', ...noGc, '--node', node.path], { GATE_GARBAGE: '1' });
      const r = await runCli(['compare', run(`${name}-base`), run(`${name}-garbage`), '--fail-on', 'gc.pauseMs:+10%', '--json']);
      const result = JSON.parse(r.stdout) as GateResult;
      const gc = result.checks[0]!;
      assert.equal(gc.baseline.median, 0, 'the baseline did no GC');
      assert.ok(gc.candidate.median! > 0, 'the garbage made some');
      assert.equal(r.code, 1, r.stderr);
      assert.equal(gc.verdict, 'broken');
      assert.equal(gc.heldAsAbsolute, true);
      assert.equal(gc.change, gc.candidate.median);
      const md = await runCli(['compare', run(`${name}-base`), run(`${name}-garbage`), '--fail-on', 'gc.pauseMs:+10%']);
      assert.match(md.stdout, /\| 0 ms \| [\d.]+ ms \| \+[\d.]+ ms \(from 0\) \| \+10% \| ❌ \*\*broken\*\* \| the baseline is 0, so the relative limit is held as absolute growth/);
      assert.ok(!/Infinity/.test(md.stdout));
    });
  }
});
