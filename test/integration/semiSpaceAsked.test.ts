/**
 * The semi-space a run asked for is read wherever `--max-semi-space-size` was given, not only from
 * V8 Lens's own option (issue 21: after Apply wrote it into launch.json's runtimeArgs the report said
 * "asked: V8 default" beside "64 MB reached"). Held against V8 itself: `--trace-gc-verbose` prints
 * the new space it committed, two semi-spaces of the size that really applied, so when NODE_OPTIONS
 * and the command line disagree V8 shows which one won.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODES, PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';

const PROGRAM = join(PROGRAMS, 'young-generation.js');

/** The largest new space V8 committed (--trace-gc-verbose), in MB. */
function committedNewSpaceMB(output: string): number {
  let largest = 0;
  for (const m of output.matchAll(/New space,.*committed:\s*(\d+) KB/g)) largest = Math.max(largest, Number(m[1]));
  assert.ok(largest > 0, `V8 printed its new space (--trace-gc-verbose): ${output.slice(0, 400)}`);
  return largest / 1024;
}

describe('the semi-space asked for, wherever the flag was given', () => {
  for (const node of NODES) {
    it(`${node.label}: an extra flag (as a launch configuration's runtimeArgs) over NODE_OPTIONS; V8 committed that size`, { timeout: 90_000 }, async () => {
      const out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--preset', 'gc', '--out', out, '--v8-flag=--trace-gc-verbose', '--v8-flag=--max-semi-space-size=2', '--', PROGRAM], {
        timeoutMs: 60_000,
        env: { NODE_OPTIONS: '--max-semi-space-size=8' },
      });
      assert.equal(r.code, 0, r.stderr);
      const gc = readSummary(out).gc!;
      // V8's own account: two semi-spaces of 2 MB at most, not of 8.
      assert.ok(committedNewSpaceMB(r.stdout) <= 4, `V8 committed ${committedNewSpaceMB(r.stdout)} MB of new space`);
      assert.equal(gc.semiSpaceRequestedMB, 2);
      assert.match(r.stderr + r.stdout, /^Young generation: semi-space [\d.]+ MB reached \(Scavenger, two semi-spaces\); asked: --max-semi-space-size=2$/m);
    });
  }

  it('NODE_OPTIONS alone, on a direct launch', { timeout: 90_000 }, async () => {
    const out = join(tempDir(), 'run');
    const r = await runCli(['profile', '--preset', 'gc', '--out', out, '--', PROGRAM], { timeoutMs: 60_000, env: { NODE_OPTIONS: '--max-semi-space-size=2' } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readSummary(out).gc!.semiSpaceRequestedMB, 2);
  });

  it("an npm script's own node command (node --max-semi-space-size=2 app.js), and compare's flags", { timeout: 120_000 }, async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'semi-app', version: '1.0.0', private: true, scripts: { start: `node --max-semi-space-size=2 ${JSON.stringify(PROGRAM)}` } }));
    const npmRun = join(dir, 'npm-run');
    const r = await runCli(['profile', '--preset', 'gc', '--out', npmRun, '--', 'npm', 'run', 'start'], { cwd: dir, timeoutMs: 90_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readSummary(npmRun).gc!.semiSpaceRequestedMB, 2);
    assert.match(r.stderr + r.stdout, /asked: --max-semi-space-size=2$/m);

    const plain = join(dir, 'plain');
    assert.equal((await runCli(['profile', '--preset', 'gc', '--out', plain, '--', PROGRAM], { timeoutMs: 60_000 })).code, 0);
    const c = await runCli(['compare', plain, npmRun, '--json']);
    assert.equal(c.code, 0, c.stderr);
    const model = JSON.parse(c.stdout) as { base: { flags: string; semiSpaceRequestedMB: number | null }; other: { flags: string; semiSpaceRequestedMB: number | null }; metrics: { key: string; base: number | null; other: number | null }[] };
    assert.match(model.base.flags, /^semi-space: V8 default · /);
    assert.match(model.other.flags, /^--max-semi-space-size=2 · /);
    assert.doesNotMatch(model.other.flags, /V8 default/);
    const row = model.metrics.find((m) => m.key === 'semiSpaceRequested')!;
    assert.deepEqual([row.base, row.other], [null, 2]);
  });
});
