/**
 * Gaps and impossibilities said aloud (issue 22). A CPU-bound target sharing one core with six busy
 * loops (taskset) loses samples: the report says how much of its time had none, in the summary's
 * warnings, the text report and the HTML, and that figure is held against V8's own account (the
 * profile's wall time against its sample count). A capture whose V8 Lens is killed mid-run is
 * reported as interrupted, and session.json says so from then on.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Summary } from '../../src/shared/model/summary';
import type { SessionRecord } from '../../src/shared/model/session';
import { CLI, NODES, PROGRAMS, REPO, collect, runCli, startCli, tempDir, waitForOutput, waitUntilGone } from './cliHarness';

const started: ChildProcess[] = [];
after(() => {
  for (const c of started) if (c.exitCode === null) c.kill('SIGKILL');
});

const hasTaskset = !spawnSync('taskset', ['--version']).error;
/** The core the target shares with the busy loops: the last one, so the other keeps the machine usable. */
const CORE = String(Math.max(0, availableParallelism() - 1));
const BUSY_LOOPS = 6;

/** Busy loops pinned to CORE for `ms`: a saturated core. */
function saturate(ms: number): ChildProcess[] {
  return Array.from({ length: BUSY_LOOPS }, () => {
    const c = spawn('taskset', ['-c', CORE, process.execPath, '-e', `const end = Date.now() + ${ms}; while (Date.now() < end) {}`], { stdio: 'ignore' });
    started.push(c);
    return c;
  });
}

const GAP = /^(?:[\w.-]+\.cpuprofile: )?([\d.]+) (s|ms) of ([\d.]+) (s|ms) had no CPU sample \((\d[\d,]*) gaps? of more than twice the ([\d.]+) ms interval, the longest ([\d.]+) (s|ms)\): the machine was saturated/;
const toMs = (value: string, unit: string) => Number(value) * (unit === 's' ? 1000 : 1);

describe('a saturated machine: the sampling gaps are said', { skip: !hasTaskset && 'taskset (util-linux) is not installed' }, () => {
  for (const node of NODES) {
    it(`${node.label}: a CPU-bound run sharing its core with ${BUSY_LOOPS} busy loops reports its unsampled time`, { timeout: 60_000 }, async () => {
      const out = join(tempDir(), 'run');
      const loops = saturate(6000);
      await new Promise((r) => setTimeout(r, 200));
      const cli = spawn('taskset', ['-c', CORE, process.execPath, CLI, 'profile', '--preset', 'cpu', '--node', node.path, '--out', out, '--', join(PROGRAMS, 'cpu-burn.js'), '3000'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
      const r = await collect(cli, 40_000);
      for (const l of loops) l.kill('SIGKILL');
      assert.equal(r.code, 0, r.stderr);

      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
      const warning = summary.warnings.find((w) => GAP.test(w));
      assert.ok(warning, `the summary says the gaps: ${summary.warnings.join('\n')}`);
      const [, unsampled, unit, wall, wallUnit] = GAP.exec(warning)!;
      const unsampledMs = toMs(unsampled!, unit!);

      // V8's own account: its profile's wall time against the samples it took at its interval.
      const file = readdirSync(join(out, 'cpu')).find((f) => f.endsWith('.cpuprofile'))!;
      const raw = JSON.parse(readFileSync(join(out, 'cpu', file), 'utf8')) as { startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };
      const wallMs = (raw.endTime - raw.startTime) / 1000;
      const positive = raw.timeDeltas.slice(1).filter((d) => d > 0).sort((a, b) => a - b);
      const intervalMs = positive[Math.floor(positive.length / 4)]! / 1000;
      const missingMs = wallMs - raw.samples.length * intervalMs;
      console.log(`# ${node.label}: ${warning}; V8's account: ${raw.samples.length} samples in ${wallMs.toFixed(0)} ms at ${intervalMs} ms = ${missingMs.toFixed(0)} ms without`);
      assert.ok(Math.abs(toMs(wall!, wallUnit!) - wallMs) <= (wallUnit === 's' ? 100 : 1), `wall ${wall} ${wallUnit} vs the profile's ${wallMs} ms`);
      assert.ok(missingMs > 0.2 * wallMs, `the core was shared: ${missingMs.toFixed(0)} of ${wallMs.toFixed(0)} ms without a sample`);
      // The said figure counts the gaps only (not the jitter of every interval), and rounds to 0.1 s.
      assert.ok(unsampledMs <= missingMs + 100 && unsampledMs >= 0.6 * missingMs, `said ${unsampledMs} ms, V8's account ${missingMs.toFixed(0)} ms`);

      assert.match(r.stdout, /note: (\S+\.cpuprofile: )?[\d.]+ (s|ms) of [\d.]+ (s|ms) had no CPU sample/, 'the text report says it');
      const html = join(tempDir(), 'r.html');
      const exported = await runCli(['report', out, '--html', html]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.ok(readFileSync(html, 'utf8').includes('had no CPU sample'), 'the HTML report (the page header lists the warnings) says it');
    });
  }
});

describe('a capture whose V8 Lens is killed is reported as interrupted', () => {
  it('SIGKILL to the CLI mid-run: the target is reaped, a later report says interrupted and session.json records it', { timeout: 60_000 }, async () => {
    const out = join(tempDir(), 'run');
    // A server (its event loop turns, so its preload sees V8 Lens go and ends the group).
    const cli = startCli(['profile', '--preset', 'cpu-gc', '--out', out, '--', join(PROGRAMS, 'http-server.js')]);
    started.push(cli);
    const [, pid] = await waitForOutput(cli, /profiling pid (\d+)/);
    await new Promise((r) => setTimeout(r, 1000));
    const ownerPid = cli.pid!;
    cli.kill('SIGKILL');
    assert.deepEqual(await waitUntilGone([Number(pid)], 15_000), [], 'the target does not outlive V8 Lens');
    const before = JSON.parse(readFileSync(join(out, 'session.json'), 'utf8')) as SessionRecord;
    assert.equal(before.status, 'running');
    assert.equal(before.owner?.pid, ownerPid, 'the run names the V8 Lens that ran it');

    const r = await runCli(['report', out, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as Summary;
    assert.match(summary.warnings[0]!, new RegExp(`^the capture was interrupted: the V8 Lens that ran it \\(pid ${ownerPid}\\) ended before the run did \\(killed, or the editor or machine went down\\), so the figures are what the folder holds; it was last written at \\d{4}-`));
    const after = JSON.parse(readFileSync(join(out, 'session.json'), 'utf8')) as SessionRecord;
    assert.equal(after.status, 'interrupted');
    assert.ok(after.interrupted?.lastWrittenAt && Date.parse(after.interrupted.lastWrittenAt) >= Date.parse(before.startedAt), JSON.stringify(after.interrupted));

    const again = await runCli(['report', out]);
    assert.match(again.stdout, /note: the capture was interrupted/, 'every later report says it');
    const gate = await runCli(['compare', out, out, '--fail-on', 'cpu.busy:+10%']);
    assert.equal(gate.code, 1);
    assert.match(gate.stderr, /did not finish \(\S+ was interrupted \(V8 Lens ended before it did\)/);
  });
});
