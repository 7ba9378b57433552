/**
 * `v8-lens compare` on real runs of real Node: a program profiled, edited by one line above its hot
 * function and profiled again shows its functions as moved, not as new + gone; two runs of an HTTP
 * server under load are compared per request with exactly the figures their summaries hold; bad
 * input gives one line and an exit code, as the other subcommands do.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import type { CompareModel, MetricRow } from '../../src/shared/model/compareModel';
import type { Summary } from '../../src/shared/model/summary';
import { PROGRAMS, SPEEDSCOPE, freePort, readSummary, runCli, tempDir } from './cliHarness';

async function profile(args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  const r = await runCli(['profile', ...args], { env, timeoutMs: 90_000 });
  assert.equal(r.code, 0, `v8-lens profile ${args.join(' ')}: ${r.stderr}`);
}

async function compareJson(a: string, b: string): Promise<CompareModel> {
  const r = await runCli(['compare', a, b, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as CompareModel;
}

/** Our own messages start with "v8-lens:"; a stack trace would show "    at ". */
function assertOneLine(stderr: string, pattern: RegExp): void {
  const ours = stderr.split('\n').filter((l) => l.startsWith('v8-lens:'));
  assert.equal(ours.length, 1, `expected one v8-lens line, got: ${stderr}`);
  assert.match(ours[0]!, pattern);
  assert.doesNotMatch(stderr, /^\s+at .+:\d+:\d+\)?$/m, 'a stack trace reached the user');
}

describe('v8-lens compare: a one-line edit between two runs', () => {
  it('lists the edited program’s functions as moved, never as new in B and gone in B', async () => {
    const dir = tempDir('v8-lens-compare-edit-');
    const program = join(dir, 'program.js');
    copyFileSync(join(PROGRAMS, 'compare-edit.js'), program);
    const source = readFileSync(program, 'utf8').split('\n');
    const hotLine = source.findIndex((l) => l.startsWith('function hotLoop(')) + 1;
    assert.ok(hotLine > 0);

    await profile(['--out', join(dir, 'A'), '--preset', 'cpu', '--', program]);
    source.splice(hotLine - 1, 0, '// the edit: one line above hotLoop');
    writeFileSync(program, source.join('\n'));
    await profile(['--out', join(dir, 'B'), '--preset', 'cpu', '--', program]);

    const model = await compareJson(join(dir, 'A'), join(dir, 'B'));
    assert.equal('flame' in model, false, '--json leaves the merged call tree out');
    const url = pathToFileURL(program).href;
    const hot = model.moved.functions.find((m) => m.name === 'hotLoop');
    assert.deepEqual(hot && { url: hot.url, from: hot.from.line, to: hot.to.line }, { url, from: hotLine, to: hotLine + 1 });

    // The fixture keeps every one of its functions busy or on the stack, so both runs sample the
    // same ones: the script, hotLoop, lightWork, times and two anonymous callbacks.
    const [a, b] = [readSummary(join(dir, 'A')), readSummary(join(dir, 'B'))];
    const ours = (s: Summary) => s.cpu!.functions.filter((f) => f.url === url);
    const names = (s: Summary) => ours(s).map((fn) => fn.name).sort();
    assert.deepEqual(names(a), ['(anonymous)', '(anonymous)', '(anonymous)', 'hotLoop', 'lightWork', 'times']);
    assert.deepEqual(names(b), names(a), 'both runs sampled the same functions of the program');

    // Each is matched: below the edit it moved by one line, above it it stayed.
    const moved = new Map(model.moved.functions.map((m) => [`${m.name}@${m.from.line}:${m.from.column}`, m.to]));
    for (const f of ours(a)) {
      const to = moved.get(`${f.name}@${f.line}:${f.column}`);
      if (f.line >= hotLine) assert.deepEqual(to, { line: f.line + 1, column: f.column }, `${f.name}@${f.line} moved one line down`);
      else assert.equal(to, undefined, `${f.name}@${f.line} is above the edit`);
    }
    // And none of them is new or gone in the lists of changes.
    const rows = [...model.topChanges.ms.increases, ...model.topChanges.ms.decreases, ...model.topChanges.share.increases, ...model.topChanges.share.decreases];
    const notMatched = rows.filter((r) => r.url === url && r.presence !== 'both');
    assert.deepEqual(notMatched.map((r) => `${r.presence} ${r.name}@${r.line}`), [], 'no function of the program is new or gone');
    for (const r of rows.filter((r) => r.url === url && r.line > hotLine)) assert.equal(r.movedFrom?.line, r.line - 1, `${r.name} is shown as moved`);

    // The text: the moved functions by name, with their lines.
    const text = await runCli(['compare', join(dir, 'A'), join(dir, 'B')], { cwd: dir });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^Moved .*hotLoop ${hotLine}→${hotLine + 1}`, 'm'));
    assert.doesNotMatch(text.stdout, /program\.js\S*\s+\((new|gone) in B\)/, 'no line of the program is new or gone');
  });
});

describe('v8-lens compare: two runs under load', () => {
  it('compares per request with the figures of both summaries’ measured windows', async () => {
    const dir = tempDir('v8-lens-compare-load-');
    const run = async (name: string, semiSpaceMB: number) => {
      const port = await freePort();
      await profile(
        ['--out', join(dir, name), '--preset', 'cpu-gc', '--semi-space', String(semiSpaceMB), '--url', `http://127.0.0.1:${port}/`, '--duration', '2', '--connections', '8', '--', join(PROGRAMS, 'http-server.js')],
        { PORT: String(port) },
      );
    };
    await run('A', 1);
    await run('B', 16);
    const [a, b] = [readSummary(join(dir, 'A')), readSummary(join(dir, 'B'))];
    for (const s of [a, b]) assert.ok(s.load?.figures && s.load.figures.requests > 0 && s.load.gcInWindow, `a load ran: ${JSON.stringify(s.load)}`);

    const model = await compareJson(join(dir, 'A'), join(dir, 'B'));
    assert.deepEqual(model.load!.underLoad, { base: true, other: true });
    const row = (key: string): MetricRow => {
      const found = model.load!.rows.find((r) => r.key === key);
      assert.ok(found, `${key} (have ${model.load!.rows.map((r) => r.key).join(', ')})`);
      return found;
    };
    const both = (key: string, of: (s: Summary) => number, eps = 0) => {
      const r = row(key);
      for (const [value, s, side] of [[r.base, a, 'A'], [r.other, b, 'B']] as const) {
        assert.ok(value !== null && Math.abs(value - of(s)) <= eps, `${key} of ${side}: ${value} vs ${of(s)} from its summary`);
      }
    };
    const f = (s: Summary) => s.load!.figures!;
    const w = (s: Summary) => s.load!.gcInWindow!;
    both('load.requests', (s) => f(s).requests);
    both('load.rps', (s) => f(s).rps);
    both('load.p50', (s) => f(s).p50Ms);
    both('load.p99', (s) => f(s).p99Ms);
    both('load.failed', (s) => s.load!.failedRequests);
    both('load.gcMsPer1k', (s) => (w(s).pauseMs / f(s).requests) * 1000, 1e-4);
    both('load.scavengesPer1k', (s) => (w(s).scavenges / f(s).requests) * 1000, 1e-4);
    both('load.gcShare', (s) => w(s).wallShare);
    // Busy = everything the profile sampled but (idle), over the window's requests.
    const busy = (s: Summary) => s.cpu!.functions.reduce((n, fn) => n + fn.selfMs, 0) - s.cpu!.pseudo.idleMs;
    both('load.cpuMsPerRequest', (s) => busy(s) / f(s).requests, 1e-3);
    assert.equal(row('load.rps').verdict, f(b).rps > f(a).rps * 1.01 ? 'better' : f(b).rps < f(a).rps * 0.99 ? 'worse' : 'same');

    // Totals keep their values and lose their verdict.
    const events = model.metrics.find((r) => r.key === 'gcEvents')!;
    assert.deepEqual([events.base, events.other, events.verdict, events.verdictNote], [a.gc!.eventCount, b.gc!.eventCount, 'info', 'total · judge per request']);

    const text = await runCli(['compare', join(dir, 'A'), join(dir, 'B')]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Under load, per request/m);
    assert.match(text.stdout, /^\s+Requests per second\s+[\d,]+ req\/s\s+[\d,]+ req\/s\s+[+−]?[\d,.]+ req\/s/m);
    assert.match(text.stdout, /^\s+GC pause per 1,000 requests\s+[\d,.]+ ms\s+[\d,.]+ ms/m);
    assert.match(text.stdout, /^\s+GC events, total\s+[\d,]+\s+[\d,]+\s+.*total · judge per request$/m);
  });
});

describe('v8-lens compare: bad input', () => {
  it('a missing folder, a folder that is not a run, a run folder against a .cpuprofile, one argument', async () => {
    const empty = tempDir();
    const profileFile = join(SPEEDSCOPE, 'chrome65-simple.cpuprofile');

    const missing = await runCli(['compare', join(empty, 'nope'), empty]);
    assert.equal(missing.code, 2);
    assertOneLine(missing.stderr, /^v8-lens: no such file or folder: .*nope$/);

    const notRun = await runCli(['compare', empty, empty]);
    assert.equal(notRun.code, 1);
    assertOneLine(notRun.stderr, /is not a V8 Lens run folder/);

    const mixed = await runCli(['compare', empty, profileFile]);
    assert.equal(mixed.code, 1);
    assertOneLine(mixed.stderr, /^v8-lens: cannot compare a run folder \(.*\) with a CPU profile \(\.cpuprofile\) \(.*chrome65-simple\.cpuprofile\): give two run folders, or two files of the same kind$/);

    const one = await runCli(['compare', empty]);
    assert.equal(one.code, 2);
    assertOneLine(one.stderr, /^v8-lens: compare needs two runs, A \(the base\) and B/);
    for (const r of [missing, notRun, mixed, one]) assert.equal(r.stdout, '', 'nothing on stdout');
  });

  it('two .cpuprofile files compare without a run around them', async () => {
    const r = await runCli(['compare', join(SPEEDSCOPE, 'chrome65-simple.cpuprofile'), join(SPEEDSCOPE, 'chrome65-sucrase.cpuprofile')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Biggest changes in self time/m);
    assert.match(r.stdout, /^\s+slower in B:$/m);
  });
});
