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
import { PROGRAMS, runCli, tempDir } from './cliHarness';

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
