/**
 * The run's self-check (issue 20, item 2): V8 output V8 Lens cannot read shows as a gap, in
 * summary.json and in what the user reads, never as a quietly smaller figure. A real run on every Node
 * in NODES that writes an unknown GC line kind and an unreadable bailout into its own V8 output, and
 * run folders spoiled afterwards (a Node whose formats all changed), through the CLI as a user runs it.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { Summary } from '../../src/shared/model/summary';
import { NODES, PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';
import { v8BailoutRecords, v8GcAccount, v8TimedGcLines } from './v8Account';

const UNREADABLE = join(PROGRAMS, 'unreadable-v8-lines.js');
const NOT_UNDERSTOOD = 'this Node’s trace format is not fully understood';

function codeTraces(run: string): string[] {
  return readdirSync(join(run, 'v8')).filter((f) => f.endsWith('.asm')).map((f) => join(run, 'v8', f));
}

describe('a real run with V8 output in a shape no Node printed', () => {
  for (const node of NODES) {
    it(`${node.label}: the unknown GC line and the unreadable bailout are counted, and the CLI and summary say so`, { timeout: 60_000 }, async () => {
      const out = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--stable-deopts', '--out', out, '--', UNREADABLE]);
      assert.equal(r.code, 0, r.stderr);
      const summary = readSummary(out);
      // V8's account by the tests' own patterns: every timed line, and those in the --trace-gc shape.
      const trace = join(out, 'gc-trace.log');
      const timed = v8TimedGcLines(trace);
      // Every --trace-gc-shaped line, the one V8 ran for V8 Lens's sampler included (read, and kept apart).
      const account = v8GcAccount(trace);
      const gcShaped = account.events + account.sampler.events;
      assert.equal(timed, gcShaped + 1, 'the injected line is V8\'s by its prefix, and not in the --trace-gc shape');
      assert.doesNotMatch(r.stdout, /Young Sweep/, 'it left the app\'s output');
      const bailouts = codeTraces(out).reduce((n, f) => n + v8BailoutRecords(readFileSync(f, 'utf8')), 0);
      assert.ok(bailouts >= 2, `add's real bailout and the injected one: ${bailouts}`);

      assert.deepEqual(summary.selfCheck?.gcLines, { seen: timed, read: gcShaped });
      assert.deepEqual(summary.selfCheck?.deopts, { seen: bailouts, read: bailouts - 1 });
      assert.equal(summary.gc?.eventCount, account.events, 'the figures are what was read (the sampler\'s GC apart)');
      assert.equal(summary.deoptCoverage, 'partial', 'some deopts read, one not: the list is incomplete');
      assert.equal(summary.processes?.[0]?.deoptCount, null, 'its own count would be short: not collected, never a smaller number');
      assert.ok(summary.deopts.some((d) => d.function === 'add' && d.reason === 'not a Smi'), JSON.stringify(summary.deopts));

      const lines = r.stdout.split('\n');
      assert.equal(lines.find((l) => l.startsWith('WARNING: V8 printed')), `WARNING: V8 printed ${timed} GC events, V8 Lens read ${gcShaped}: ${NOT_UNDERSTOOD}`);
      assert.equal(lines.find((l) => l.startsWith('WARNING: V8 traced')), `WARNING: V8 traced ${bailouts} deopts, V8 Lens read ${bailouts - 1}: ${NOT_UNDERSTOOD}`);
      assert.ok(lines.indexOf(lines.find((l) => l.startsWith('WARNING:'))!) < lines.findIndex((l) => l.startsWith('GC ')), 'the warning comes before the figures');
      assert.match(r.stdout, new RegExp(`^GC \\(pid \\d+\\): ${account.events} events \\(of ${timed} V8 printed: 1 could not be read\\)`, 'm'));
      assert.match(r.stdout, /^Deopts: \d+ site\(s\), \d+ event\(s\) \(incomplete: V8 traced more than V8 Lens could read\)$/m);

      // Read again from the folder's raw files alone (its summary.json set aside): the same counts.
      rmSync(join(out, 'summary.json'));
      const again = await runCli(['report', out, '--json']);
      assert.equal(again.code, 0, again.stderr);
      assert.deepEqual((JSON.parse(again.stdout) as Summary).selfCheck, summary.selfCheck);
    });
  }
});

describe('a run folder whose formats V8 Lens no longer reads', () => {
  let base = '';
  before(async () => {
    base = join(tempDir(), 'run');
    const r = await runCli(['profile', '--stable-deopts', '--out', base, '--', join(PROGRAMS, 'deopts.js')]);
    assert.equal(r.code, 0, r.stderr);
    const summary = readSummary(base);
    assert.ok(summary.selfCheck?.gcLines && summary.selfCheck.gcLines.seen === summary.selfCheck.gcLines.read, JSON.stringify(summary.selfCheck));
    assert.ok(summary.deopts.length > 0 && summary.selfCheck?.deopts?.seen === summary.selfCheck?.deopts?.read);
  });

  /** A copy of the real run, its scavenge lines and every bailout record rewritten in shapes no Node printed. */
  function spoiled(what: { scavenges?: boolean; allGc?: boolean; bailouts?: boolean }): string {
    const dir = join(tempDir(), 'run');
    cpSync(base, dir, { recursive: true });
    // Without its summary.json, `v8-lens report` reads the folder's raw files again.
    rmSync(join(dir, 'summary.json'));
    const trace = join(dir, 'gc-trace.log');
    writeFileSync(
      trace,
      readFileSync(trace, 'utf8')
        .split('\n')
        .map((l) => (what.allGc || (what.scavenges && / ms: Scavenge /.test(l)) ? l.replace(' MB, ', ' MiB; ') : l))
        .join('\n'),
    );
    if (what.bailouts) for (const f of codeTraces(dir)) writeFileSync(f, readFileSync(f, 'utf8').replace(/\): begin\. deoptimizing /g, '): start deoptimizing '));
    return dir;
  }

  it('unknown GC line kinds and unreadable bailouts: selfCheck has the gap, the CLI warns first, deopts are "not collected", never "none"', async () => {
    const dir = spoiled({ scavenges: true, bailouts: true });
    const account = v8GcAccount(join(dir, 'gc-trace.log'));
    // Every line still in the --trace-gc shape, the GC V8 ran for V8 Lens's sampler included.
    const v8 = { events: account.events + account.sampler.events };
    const timed = v8TimedGcLines(join(dir, 'gc-trace.log'));
    const bailouts = codeTraces(dir).reduce((n, f) => n + v8BailoutRecords(readFileSync(f, 'utf8')), 0);
    assert.ok(timed > v8.events && bailouts > 0, `${timed} timed lines, ${v8.events} still readable, ${bailouts} bailouts`);

    const json = await runCli(['report', dir, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const summary = JSON.parse(json.stdout) as Summary;
    assert.deepEqual(summary.selfCheck?.gcLines, { seen: timed, read: v8.events });
    assert.deepEqual(summary.selfCheck?.deopts, { seen: bailouts, read: 0 });
    assert.equal(summary.deoptCoverage, 'not-collected');
    assert.deepEqual(summary.deopts, []);

    const text = await runCli(['report', dir]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^WARNING: V8 printed ${timed} GC events, V8 Lens read ${v8.events}: ${NOT_UNDERSTOOD}\\nWARNING: V8 traced ${bailouts} deopts, V8 Lens read 0: ${NOT_UNDERSTOOD}\\n`));
    assert.match(text.stdout, /^Deopts: not collected \(deopts: V8 traced \d+ deopts and V8 Lens could read none/m);
    assert.doesNotMatch(text.stdout, /none recorded|Deopts: 0/);

    // The standalone HTML report carries the same counts to its header (drawn by the page: test/browser).
    const html = join(tempDir(), 'report.html');
    const page = await runCli(['report', dir, '--html', html]);
    assert.equal(page.code, 0, page.stderr);
    assert.ok(readFileSync(html, 'utf8').includes(`"selfCheck":${JSON.stringify(summary.selfCheck)}`), 'the page has the self-check');
  });

  it('GC lines none of which can be read: the GC figures are not collected, never "0 events"', async () => {
    const dir = spoiled({ allGc: true });
    const timed = v8TimedGcLines(join(dir, 'gc-trace.log'));
    assert.equal(v8GcAccount(join(dir, 'gc-trace.log')).events, 0);
    const json = await runCli(['report', dir, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const summary = JSON.parse(json.stdout) as Summary;
    assert.equal(summary.gc, null);
    assert.deepEqual(summary.selfCheck?.gcLines, { seen: timed, read: 0 });
    assert.ok(summary.warnings.some((w) => w.startsWith(`GC: V8 printed ${timed} GC events and V8 Lens could read none`)), summary.warnings.join('\n'));
    const text = await runCli(['report', dir]);
    assert.match(text.stdout, /^WARNING: V8 printed \d+ GC events, V8 Lens read 0/m);
    assert.doesNotMatch(text.stdout, /^GC.*: 0 events/m);
  });
});
