/**
 * `v8-lens profile` on real Node with real V8 flags, under every Node in NODES: the fixtures' known
 * behaviour must come back in summary.json, and its GC equal V8's own lines of the same run.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODES, PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';
import { assertGcIsV8s, assertReadWhole } from './v8Account';

interface ExpectedDeopt {
  line: number;
  column: number;
  kind: string;
  function: string;
  reason?: string;
  reasons?: Record<string, string>;
  inlinedAt: { line: number; column: number }[];
}

const GC_FIXTURES = join(PROGRAMS, '..', 'gc');
const expectedDeopts = JSON.parse(readFileSync(join(PROGRAMS, 'deopts.expected.json'), 'utf8')) as ExpectedDeopt[];

async function profile(node: string, args: string[], script: string, scriptArgs: string[] = []) {
  const out = join(tempDir(), 'run');
  const result = await runCli(['profile', '--node', node, '--out', out, ...args, '--', join(PROGRAMS, script), ...scriptArgs]);
  assert.equal(result.code, 0, `v8-lens failed: ${result.stderr}`);
  return { out, summary: readSummary(out), result };
}

for (const node of NODES) {
  describe(`profile on ${node.label}`, () => {
    it('finds the known deopt sites at their 1-based lines with V8\'s reasons', async () => {
      const { summary, out } = await profile(node.path, ['--stable-deopts'], 'deopts.js');
      for (const expected of expectedDeopts) {
        const reason = expected.reasons?.[String(node.major)] ?? expected.reason;
        const found = summary.deopts.find((d) => d.url.endsWith('deopts.js') && d.line === expected.line && d.column === expected.column && d.reason === reason);
        assert.ok(found, `no "${reason}" deopt at deopts.js:${expected.line}:${expected.column}; got ${JSON.stringify(summary.deopts.map((d) => `${d.line}:${d.column} ${d.reason}`))}`);
        assert.equal(found.kind, expected.kind);
        assert.equal(found.function, expected.function);
        assert.deepEqual(found.inlinedAt.map((p) => [p.line, p.column]), expected.inlinedAt.map((p) => [p.line, p.column]));
      }
      // V8's trace of this run holds at least the known deopts, and all of it was read.
      assertReadWhole(summary, 'deopts', expectedDeopts.length);
      assert.ok(summary.cpu && summary.cpu.functions.length > 0, 'cpu.functions is empty');
      assert.ok((summary.gc?.byType.Scavenge?.count ?? 0) > 0, 'no scavenges in gc.byType');
      assertGcIsV8s(join(out, 'gc-trace.log'), summary);
    });

    it('sees fewer scavenges with --max-semi-space-size=64 than with 16, and measures the semi-space', async () => {
      const small = await profile(node.path, ['--preset', 'gc', '--semi-space', '16'], 'alloc-heavy.js');
      const large = await profile(node.path, ['--preset', 'gc', '--semi-space', '64'], 'alloc-heavy.js');
      const scavenges = (s: typeof small) => s.summary.gc!.byType.Scavenge!.count;
      assert.ok(scavenges(large) < scavenges(small), `64 MB: ${scavenges(large)} scavenges, 16 MB: ${scavenges(small)}`);
      assert.equal(small.summary.gc!.semiSpaceRequestedMB, 16);
      assert.equal(large.summary.gc!.semiSpaceRequestedMB, 64);
      // What the run really reached: never above the limit, and the larger limit let it grow further.
      assert.ok(small.summary.gc!.semiSpaceMB! <= 16 && small.summary.gc!.semiSpaceMB! > 0);
      assert.ok(large.summary.gc!.semiSpaceMB! > small.summary.gc!.semiSpaceMB!);
      assert.equal(small.summary.cpu, null, 'the gc preset takes no CPU profile');
      for (const run of [small, large]) assertGcIsV8s(join(run.out, 'gc-trace.log'), run.summary);
    });

    it("counts every GC kind this Node prints as V8 printed it, by type and pause (Node 26's new kinds included)", { timeout: 60_000 }, async () => {
      // A 1 MB semi-space under a slowly growing old generation: many scavenges, several full GCs that
      // incremental marking finishes, and on Node 26 scavenges while the last one's sweeping still runs.
      const out = join(tempDir(), 'run');
      const result = await runCli(['profile', '--node', node.path, '--preset', 'gc', '--semi-space', '1', '--out', out, '--', join(GC_FIXTURES, 'record-gc-churn.js'), '300']);
      assert.equal(result.code, 0, result.stderr);
      const summary = readSummary(out);
      assertGcIsV8s(join(out, 'gc-trace.log'), summary);
      const trace = readFileSync(join(out, 'gc-trace.log'), 'utf8');
      const incremental = summary.gc!.byType['Incremental Mark-Compact']?.count ?? 0;
      if (node.major >= 26) {
        // V8 14.6 names a full GC that incremental marking finished "Incremental Mark-Compact" (8-9 per
        // run here), and prints "Scavenge (during sweeping)" (5-26 per run in 8 runs): both read.
        assert.ok(incremental > 0, JSON.stringify(summary.gc!.byType));
        assert.ok(/ ms: Scavenge \(during sweeping\) /.test(trace), 'the trace has scavenges during sweeping');
      } else {
        // Up to Node 24 both are printed "Mark-Compact" and "Scavenge".
        assert.equal(incremental, 0);
        assert.doesNotMatch(trace, /Incremental Mark-Compact|during sweeping/);
        assert.ok((summary.gc!.byType['Mark-Compact']?.count ?? 0) > 0, JSON.stringify(summary.gc!.byType));
      }
    });

    it('names the function that really burns the CPU as the hottest', async () => {
      const { summary, out } = await profile(node.path, ['--preset', 'cpu'], 'cpu-burn.js', ['500']);
      const top = summary.cpu!.functions[0]!;
      assert.equal(top.name, 'burnCycles');
      assert.ok(top.url.endsWith('cpu-burn.js'));
      assert.equal(top.line, 4, 'burnCycles is declared on line 4 (1-based)');
      assert.ok(top.selfMs > 0.5 * summary.cpu!.durationMs * 0.5, `burnCycles self ${top.selfMs} ms of ${summary.cpu!.durationMs} ms`);
      const light = summary.cpu!.functions.find((f) => f.name === 'lightWork');
      assert.ok(!light || light.selfMs < top.selfMs / 3);
      const hotLine = summary.cpu!.lines[0]!;
      assert.ok(hotLine.line >= 4 && hotLine.line <= 8, `hottest line ${hotLine.line} is inside burnCycles`);
      assert.equal(readdirSync(join(out, 'cpu')).filter((f) => f.endsWith('.cpuprofile')).length, 1);
    });
  });
}
