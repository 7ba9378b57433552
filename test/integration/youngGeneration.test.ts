/**
 * The young generation the report gives is what V8 itself says it reached, for both collectors:
 * `--trace-gc-verbose` prints the new space's committed size after each GC (two semi-spaces with the
 * Scavenger, one space with Minor Mark-Sweep), in the same run. Halving a Minor Mark-Sweep new space
 * once reported 27.9 MB for a 56 MB young generation, and a run without a young GC "0.5 MB".
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODES, PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';

const PROGRAM = join(PROGRAMS, 'young-generation.js');

/** The largest "New space, … committed: N KB" V8 printed (--trace-gc-verbose), in MB. */
function committedNewSpaceMB(output: string): number {
  let largest = 0;
  for (const m of output.matchAll(/New space,.*committed:\s*(\d+) KB/g)) largest = Math.max(largest, Number(m[1]));
  assert.ok(largest > 0, `V8 printed its new space (--trace-gc-verbose): ${output.slice(0, 400)}`);
  return largest / 1024;
}

async function profile(node: string, flags: string[]): Promise<{ summary: ReturnType<typeof readSummary>; v8MB: number; output: string }> {
  const out = join(tempDir(), 'run');
  const r = await runCli(['profile', '--node', node, '--preset', 'gc', '--out', out, '--v8-flag=--trace-gc-verbose', ...flags, '--', PROGRAM], { timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.stderr);
  return { summary: readSummary(out), v8MB: committedNewSpaceMB(r.stdout), output: r.stdout };
}

/**
 * The largest semi-space capacity V8 printed after a GC (--trace-gc-verbose), MB: the new space's
 * "used" plus "available" (one semi-space with the Scavenger). Its "committed" is both semi-spaces on
 * Node 20–24, but Node 26 commits the pages lazily (57.5 MB committed for two 32 MB semi-spaces).
 */
function semiSpaceCapacityMB(output: string): number {
  let largest = 0;
  for (const m of output.matchAll(/New space,\s+used:\s*(\d+) KB, available:\s*(\d+) KB/g)) largest = Math.max(largest, Number(m[1]) + Number(m[2]));
  assert.ok(largest > 0, `V8 printed its new space (--trace-gc-verbose): ${output.slice(0, 400)}`);
  return largest / 1024;
}

describe('young generation: what V8 reached, named by its collector', () => {
  for (const node of NODES) {
    it(`${node.label}, the Scavenger: the semi-space V8 had, two of them the new space`, { timeout: 90_000 }, async () => {
      const { summary, output } = await profile(node.path, []);
      const gc = summary.gc!;
      const semiMB = semiSpaceCapacityMB(output);
      assert.equal(gc.youngGeneration?.collector, 'Scavenger');
      assert.ok(Math.abs(gc.semiSpaceMB! - semiMB) <= 0.5, `semi-space ${gc.semiSpaceMB} MB vs V8's ${semiMB} MB`);
      assert.ok(Math.abs(gc.youngGeneration!.newSpaceMB! - 2 * semiMB) <= 1, `new space ${gc.youngGeneration!.newSpaceMB} MB vs V8's 2 × ${semiMB} MB`);
      // Node 20–24 commit both semi-spaces whole; Node 26 lazily, at most that.
      const committed = committedNewSpaceMB(output);
      if (node.major < 26) assert.ok(Math.abs(committed - 2 * semiMB) <= 1, `committed ${committed} MB`);
      else assert.ok(committed <= 2 * semiMB + 0.5, `committed ${committed} MB`);
      assert.equal(gc.semiSpaceRequestedMB, null);
    });
  }

  const node24 = NODES.find((n) => n.major === 24)!;
  it('Node 24 with --minor-ms --max-semi-space-size=64: the one space V8 had, not half of it', { timeout: 90_000 }, async () => {
    const { summary, v8MB } = await profile(node24.path, ['--v8-flag=--minor-ms', '--semi-space', '64']);
    const gc = summary.gc!;
    assert.equal(gc.youngGeneration?.collector, 'Minor Mark-Sweep');
    assert.ok(v8MB > 40, `V8 grew the space toward 64 MB: ${v8MB} MB`);
    // Read right after each GC; V8's committed size is printed at the same moments, give or take a page or two.
    assert.ok(Math.abs(gc.semiSpaceMB! - v8MB) <= 2, `young generation ${gc.semiSpaceMB} MB vs V8's ${v8MB} MB`);
    assert.equal(gc.semiSpaceRequestedMB, 64);
    const text = await runCli(['report', summary.source.path]);
    assert.match(text.stdout, /Young generation: young generation \d+ MB reached \(Minor Mark-Sweep, one space\); asked: --max-semi-space-size=64/);
  });

  it('a run without a young-generation GC says so instead of a size', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const program = join(dir, 'idle.js');
    writeFileSync(program, 'setTimeout(() => {}, 300);\n');
    const out = join(dir, 'run');
    const r = await runCli(['profile', '--preset', 'gc', '--out', out, '--', program]);
    assert.equal(r.code, 0, r.stderr);
    const gc = readSummary(out).gc!;
    assert.equal(gc.eventCount, 0);
    assert.equal(gc.youngGeneration?.collector, null);
    assert.equal(gc.semiSpaceMB, null);
    assert.match(r.stdout, /Young generation: no young-generation GC ran; asked: V8 default/);
  });
});
