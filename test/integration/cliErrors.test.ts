/**
 * Bad input and bad endings, tried as a new user would: each gives one clear line on stderr and a
 * non-zero exit, never a stack trace or a hang, and keeps whatever was collected.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROGRAMS, SPEEDSCOPE, readSession, readSummary, runCli, tempDir } from './cliHarness';

/** Our own messages start with "v8-lens:"; a stack trace would show "    at ". */
function assertCleanError(stderr: string, pattern: RegExp): void {
  const ours = stderr.split('\n').filter((l) => l.startsWith('v8-lens:'));
  assert.equal(ours.length, 1, `expected one v8-lens line, got: ${stderr}`);
  assert.match(ours[0]!, pattern);
  assert.doesNotMatch(stderr, /^\s+at .+:\d+:\d+\)?$/m, 'a stack trace reached the user');
}

describe('profile: bad input', () => {
  it('a script that does not exist', async () => {
    const r = await runCli(['profile', '--out', join(tempDir(), 'r'), '--', 'no-such-script.js']);
    assert.equal(r.code, 2);
    assertCleanError(r.stderr, /script not found: no-such-script\.js/);
  });

  it('an unknown V8 flag, caught before launch with a suggestion', async () => {
    const out = join(tempDir(), 'r');
    const r = await runCli(['profile', '--out', out, '--v8-flag', '--max-semi-space-sise=64', '--', join(PROGRAMS, 'cpu-burn.js')]);
    assert.equal(r.code, 1);
    assertCleanError(r.stderr, /unknown flag --max-semi-space-sise: Node v\d+.* has no such option; did you mean --max-semi-space-size\?/);
    assert.equal(existsSync(out), false, 'nothing should be launched or written');
  });

  it('a flag value of the wrong type', async () => {
    const r = await runCli(['profile', '--out', join(tempDir(), 'r'), '--v8-flag', '--max-old-space-size=lots', '--', join(PROGRAMS, 'cpu-burn.js')]);
    assert.equal(r.code, 1);
    assertCleanError(r.stderr, /--max-old-space-size=lots: a whole number is expected/);
  });

  it('a Node binary that does not exist', async () => {
    const r = await runCli(['profile', '--node', '/nonexistent/bin/node', '--out', join(tempDir(), 'r'), '--', join(PROGRAMS, 'cpu-burn.js')]);
    assert.equal(r.code, 2);
    assertCleanError(r.stderr, /Node\.js not found: '\/nonexistent\/bin\/node'/);
  });

  it('a run folder that already holds something', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'keep.txt'), 'precious');
    const r = await runCli(['profile', '--out', dir, '--', join(PROGRAMS, 'cpu-burn.js')]);
    assert.equal(r.code, 2);
    assertCleanError(r.stderr, /already exists and is not empty/);
    assert.equal(readFileSync(join(dir, 'keep.txt'), 'utf8'), 'precious');
  });
});

describe('profile: a target that crashes', () => {
  it('reports the exit code and its last stderr lines, and keeps the artifacts', async () => {
    const out = join(tempDir(), 'r');
    const r = await runCli(['profile', '--out', out, '--', join(PROGRAMS, 'crash.js')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^v8-lens: the target exited with code 1 after [\d.]+ s; its last stderr lines:$/m);
    assert.match(r.stderr, /^ {2}\| Error: fixture failure: the database is unreachable$/m);
    assert.match(r.stderr, /whatever was collected is kept in /);
    assert.match(r.stdout, /about to fail true/, 'the app output is passed through');
    const session = readSession(out);
    assert.equal(session.status, 'crashed');
    assert.equal(session.exit?.code, 1);
    assert.ok(session.stderrTail.some((l) => l.includes('fixture failure')));
    const summary = readSummary(out);
    assert.ok(summary.gc && summary.gc.eventCount >= 0);
    assert.ok(summary.cpu, 'an uncaught exception still exits through Node, so the CPU profile is written');
  });
});

describe('report: bad and partial files', () => {
  it('a missing file', async () => {
    const r = await runCli(['report', 'nowhere.cpuprofile']);
    assert.equal(r.code, 2);
    assertCleanError(r.stderr, /no such file or folder: nowhere\.cpuprofile/);
  });

  it('an empty file', async () => {
    const file = join(tempDir(), 'empty.cpuprofile');
    writeFileSync(file, '');
    const r = await runCli(['report', file]);
    assert.equal(r.code, 1);
    assertCleanError(r.stderr, /empty\.cpuprofile is empty/);
  });

  it('half a profile', async () => {
    const text = readFileSync(join(SPEEDSCOPE, 'chrome65-sucrase.cpuprofile'), 'utf8');
    const file = join(tempDir(), 'half.cpuprofile');
    writeFileSync(file, text.slice(0, text.length >> 1));
    const r = await runCli(['report', file]);
    assert.equal(r.code, 1);
    assertCleanError(r.stderr, /half\.cpuprofile.*(truncated|cut)/i);
  });

  it('JSON that is not a profile', async () => {
    const file = join(tempDir(), 'package.json');
    writeFileSync(file, JSON.stringify({ name: 'x', version: '1.0.0' }));
    const r = await runCli(['report', file]);
    assert.equal(r.code, 1);
    assertCleanError(r.stderr, /package\.json/);
  });

  it('text that is none of our formats', async () => {
    const file = join(tempDir(), 'notes.txt');
    writeFileSync(file, 'hello\nworld\n');
    const r = await runCli(['report', file]);
    assert.equal(r.code, 1);
    assertCleanError(r.stderr, /is not a \.cpuprofile, a \.heapprofile, a pprof profile, a GC trace \(--trace-gc output\) or a V8 log/);
  });

  it('a GC log cut mid-line gives the complete events and says the last line was cut', async () => {
    const dir = tempDir();
    const full = join(dir, 'run');
    const made = await runCli(['profile', '--preset', 'gc', '--out', full, '--', join(PROGRAMS, 'alloc-heavy.js')]);
    assert.equal(made.code, 0, made.stderr);
    const trace = readFileSync(join(full, 'gc-trace.log'), 'utf8');
    const lines = trace.trimEnd().split('\n');
    assert.ok(lines.length >= 10);
    const cutFile = join(dir, 'cut-gc.log');
    writeFileSync(cutFile, trace.slice(0, trace.length - Math.floor(lines.at(-1)!.length / 2) - 1));
    const r = await runCli(['report', cutFile, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    // The log also holds V8's pretenuring lines (printed before their GC's line): only timed lines are events.
    const events = lines.filter((l) => /^\[\d+:0x[0-9a-f]+(?::\d+)?\]\s+\d+ ms: /.test(l));
    assert.match(lines.at(-1)!, / ms: /, 'the last line, the one cut, is a GC event');
    assert.equal(summary.gc.eventCount, events.length - 1);
    assert.ok(summary.warnings.some((w: string) => /cut short/.test(w)), JSON.stringify(summary.warnings));
  });

  it('a folder that is not a run folder', async () => {
    const r = await runCli(['report', tempDir()]);
    assert.equal(r.code, 1);
    assertCleanError(r.stderr, /is not a V8 Lens run folder/);
  });

  it('a run folder whose profile was cut still reports the other parts', async () => {
    const out = join(tempDir(), 'run');
    const made = await runCli(['profile', '--out', out, '--', join(PROGRAMS, 'deopts.js')]);
    assert.equal(made.code, 0, made.stderr);
    const [profile] = readdirSync(join(out, 'cpu'));
    const path = join(out, 'cpu', profile!);
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 100));
    writeFileSync(join(out, 'summary.json'), '');
    const r = await runCli(['report', out, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.cpu, null);
    assert.ok(summary.gc.eventCount > 0);
    assert.ok(summary.deopts.length > 0);
    assert.ok(summary.warnings.some((w: string) => w.includes(profile!)), JSON.stringify(summary.warnings));
  });
});

describe('report: data that tries to drive the terminal', () => {
  it('prints no control character from a crafted profile, in the text or the JSON', async () => {
    const dir = tempDir();
    const frame = (functionName: string, url: string) => ({ functionName, scriptId: '1', url, lineNumber: 3, columnNumber: 1 });
    const evil = 'evil\u001b]0;pwned\u0007\u001b[2J\rX\u009b31m';
    const profile = {
      nodes: [{ id: 1, callFrame: frame('(root)', ''), children: [2] }, { id: 2, callFrame: frame(evil, 'file:///a\u001b[31m.js') }],
      startTime: 0,
      endTime: 4000,
      samples: [2, 2, 2, 2],
      timeDeltas: [0, 1000, 1000, 1000],
    };
    const file = join(dir, 'evil.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    for (const args of [['report', file], ['report', file, '--json']]) {
      const r = await runCli(args);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, `${args.join(' ')} printed a control character`);
    }
    const text = await runCli(['report', file]);
    assert.match(text.stdout, /evil\\x1b\]0;pwned\\x07/, 'the name is still there, made visible');
  });
});
