/**
 * A run folder is data (a ticket's attachment, a cloned repository): one crafted to point outside
 * itself, to a FIFO or a device, or holding valid JSON of the wrong shape, gives one line of reason
 * and whatever the rest of the folder holds, through the CLI as a user runs it. Never the outside
 * file's bytes, never a hang, never "internal error" (exit 70). Issue 12, items 4 and 7.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { checkAgentRecord } from '../../src/core/run/agentRecords';
import { checkSession } from '../../src/shared/model/sessionCheck';
import { checkSummary } from '../../src/shared/model/summaryCheck';
import { PROGRAMS, readSession, readSummary, runCli, tempDir, type CliResult } from './cliHarness';

/** A marker only the outside file holds: it must never reach any output. */
const SECRET = 'root:x:0:0:v8-lens-secret-marker';
/** A FIFO or /dev/zero must be refused at once; a hang fails the test instead of the suite. */
const QUICK_MS = 20_000;

let base = '';
let outside = '';
let profileName = '';

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/** A copy of the real run to spoil. */
function copyOfRun(): string {
  const dir = join(tempDir(), 'run');
  cpSync(base, dir, { recursive: true });
  return dir;
}

function editJson(path: string, edit: (value: Record<string, any>) => unknown): void {
  const value = JSON.parse(readFileSync(path, 'utf8'));
  writeFileSync(path, JSON.stringify(edit(value) ?? value));
}

function deepField(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Exit 0, no "internal error", no secret anywhere, and a warning matching `pattern`. */
async function reportsPartially(dir: string, pattern: RegExp): Promise<{ summary: any; result: CliResult }> {
  const result = await runCli(['report', dir, '--json'], { timeoutMs: QUICK_MS });
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /internal error/);
  assert.ok(!(result.stdout + result.stderr).includes(SECRET), 'the outside file reached the output');
  const summary = JSON.parse(result.stdout);
  const matching = (summary.warnings as string[]).filter((w) => pattern.test(w));
  assert.equal(matching.length, 1, `expected one warning matching ${pattern}, got ${JSON.stringify(summary.warnings)}`);
  assert.doesNotMatch(matching[0]!, /[\r\n]/);
  return { summary, result };
}

/** The same folder through `report --html`: the page is written and holds nothing from outside. */
async function htmlHasNoSecret(dir: string): Promise<string> {
  const html = join(tempDir(), 'report.html');
  const result = await runCli(['report', dir, '--html', html], { timeoutMs: QUICK_MS });
  assert.equal(result.code, 0, result.stderr);
  const page = readFileSync(html, 'utf8');
  assert.ok(!page.includes(SECRET), 'the outside file reached the HTML report');
  return page;
}

function assertCleanError(stderr: string, pattern: RegExp): void {
  const ours = stderr.split('\n').filter((l) => l.startsWith('v8-lens:'));
  assert.equal(ours.length, 1, `expected one v8-lens line, got: ${stderr}`);
  assert.match(ours[0]!, pattern);
  assert.doesNotMatch(stderr, /internal error|^\s+at .+:\d+:\d+\)?$/m);
}

before(async () => {
  base = join(tempDir(), 'base');
  const made = await runCli(['profile', '--out', base, '--', join(PROGRAMS, 'deopts.js')]);
  assert.equal(made.code, 0, made.stderr);
  profileName = readdirSync(join(base, 'cpu'))[0]!;
  outside = join(tempDir(), 'passwd');
  writeFileSync(outside, `${SECRET}\n`);
});

describe('what V8 Lens writes fits the shape checks', () => {
  it('summary.json, session.json and every agent record of a real run', () => {
    assert.equal(checkSummary(readSummary(base), ''), null);
    assert.equal(checkSession(readSession(base), ''), null);
    const records = readdirSync(join(base, 'agent'));
    assert.ok(records.length > 0);
    for (const name of records) assert.equal(checkAgentRecord(JSON.parse(readFileSync(join(base, 'agent', name), 'utf8')), ''), null, name);
  });
});

describe('a run folder pointing outside itself', () => {
  it("summary.json's cpu.profile ../../../../etc/passwd: one line, the report rebuilt from the folder, the file never read", async () => {
    const dir = copyOfRun();
    const traversal = `../../../../../../../..${outside}`;
    editJson(join(dir, 'summary.json'), (s) => {
      s.cpu.profile = traversal;
      for (const p of s.processes) if (p.cpu) p.cpu.profile = traversal;
    });
    const { summary } = await reportsPartially(dir, /^summary\.json: cpu\.profile is ".*": a path, not the name of a file in cpu\/; the report is rebuilt from the run's files$/);
    assert.equal(summary.cpu.profile, profileName, 'rebuilt from the real profile');
    assert.ok(summary.gc.eventCount > 0);
    await htmlHasNoSecret(dir);
    const text = await runCli(['report', dir], { timeoutMs: QUICK_MS });
    assert.equal(text.code, 0, text.stderr);
    assert.ok(!text.stdout.includes(SECRET));
  });

  it('the same through processes[].cpu.profile only', async () => {
    const dir = copyOfRun();
    editJson(join(dir, 'summary.json'), (s) => {
      s.processes[0].cpu.profile = '../../../../etc/passwd';
    });
    await reportsPartially(dir, /^summary\.json: processes\[0\]\.cpu\.profile is "\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd": a path/);
    await htmlHasNoSecret(dir);
  });

  it('a profile that is a link to a file outside', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    rmSync(join(dir, 'cpu', profileName));
    symlinkSync(outside, join(dir, 'cpu', profileName));
    const { summary } = await reportsPartially(dir, /^cpu\/CPU\..*\.cpuprofile leads outside the run folder \(to .*passwd\); not read$/);
    assert.equal(summary.cpu, null);
    assert.ok(summary.gc.eventCount > 0, 'the rest of the folder is read');
    assert.ok(summary.deopts.length > 0);
    await htmlHasNoSecret(dir);
  });

  it('a summary naming a profile that is a link outside: the flame graph is refused, the rest shown', async () => {
    const dir = copyOfRun();
    symlinkSync(outside, join(dir, 'cpu', 'evil.cpuprofile'));
    editJson(join(dir, 'summary.json'), (s) => {
      s.cpu.profile = 'evil.cpuprofile';
      s.processes = undefined;
    });
    const page = await htmlHasNoSecret(dir);
    assert.match(page, /flame graph: cpu\/evil\.cpuprofile leads outside the run folder/);
  });

  it('cpu/ itself a link to a folder outside', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    const elsewhere = tempDir();
    cpSync(join(dir, 'cpu'), elsewhere, { recursive: true });
    rmSync(join(dir, 'cpu'), { recursive: true });
    symlinkSync(elsewhere, join(dir, 'cpu'));
    const { summary } = await reportsPartially(dir, /^cpu\/.*leads outside the run folder/);
    assert.equal(summary.cpu, null);
  });

  it('gc-trace.log and an agent record linked outside', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    rmSync(join(dir, 'gc-trace.log'));
    symlinkSync(outside, join(dir, 'gc-trace.log'));
    symlinkSync(outside, join(dir, 'agent', '1.json'));
    const { summary } = await reportsPartially(dir, /^gc-trace\.log leads outside the run folder .*; not read$/);
    assert.ok(summary.warnings.some((w: string) => /^agent\/1\.json leads outside the run folder .*; that process record was left out$/.test(w)), JSON.stringify(summary.warnings));
    assert.ok(!summary.warnings.some((w: string) => /no GC trace was found/.test(w)), 'the trace is there: it was refused, not missing');
    assert.ok(summary.cpu, 'the profile is still read');
  });
});

describe('FIFOs and devices in a run folder', () => {
  it('a FIFO in place of summary.json and of session.json does not hang: rebuilt from the rest', async () => {
    const dir = copyOfRun();
    for (const file of ['summary.json', 'session.json']) {
      rmSync(join(dir, file));
      mkfifo(join(dir, file));
    }
    const { summary } = await reportsPartially(dir, /^summary\.json is a FIFO \(named pipe\), not a regular file; the report is rebuilt from the run's files$/);
    assert.ok(summary.warnings.some((w: string) => /^session\.json is a FIFO \(named pipe\), not a regular file; the run is read without it/.test(w)));
    assert.ok(summary.cpu && summary.gc);
    await htmlHasNoSecret(dir);
  });

  it('a FIFO in place of the profile and of gc-trace.log does not hang', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    for (const file of [join('cpu', profileName), 'gc-trace.log']) {
      rmSync(join(dir, file));
      mkfifo(join(dir, file));
    }
    const { summary } = await reportsPartially(dir, /^cpu\/CPU\..*\.cpuprofile is a FIFO \(named pipe\), not a regular file; not read$/);
    assert.equal(summary.cpu, null);
    assert.ok(summary.warnings.some((w: string) => /^gc-trace\.log is a FIFO/.test(w)));
    assert.ok(summary.deopts.length > 0, 'the V8 log and code traces are still read');
    await htmlHasNoSecret(dir);
  });

  it('/dev/zero linked as the profile is refused at once', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    rmSync(join(dir, 'cpu', profileName));
    symlinkSync('/dev/zero', join(dir, 'cpu', profileName));
    const started = Date.now();
    await reportsPartially(dir, /^cpu\/CPU\..*\.cpuprofile leads outside the run folder \(to \/dev\/zero\); not read$/);
    assert.ok(Date.now() - started < QUICK_MS);
  });

  it('a FIFO or a device given as the file to report on: one line, exit 1', async () => {
    const fifo = join(tempDir(), 'trace.log');
    mkfifo(fifo);
    for (const [path, kind] of [[fifo, /is a FIFO \(named pipe\), not a file to report on/], ['/dev/zero', /\/dev\/zero is a character device, not a file to report on/]] as const) {
      const r = await runCli(['report', path], { timeoutMs: QUICK_MS });
      assert.equal(r.code, 1);
      assertCleanError(r.stderr, kind);
    }
  });

  it('a profile over 512 MB: refused before it is read, in a run folder and alone', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    const big = join(dir, 'cpu', profileName);
    writeFileSync(big, '{"nodes":[');
    execFileSync('truncate', ['-s', '600M', big]); // sparse: the rest is never written
    await reportsPartially(dir, /^cpu\/CPU\..*\.cpuprofile is too large to read \(600 MB; at most 512 MB, the longest text V8 can hold in one string\)$/);
    const alone = await runCli(['report', big], { timeoutMs: QUICK_MS });
    assert.equal(alone.code, 1);
    assertCleanError(alone.stderr, /is too large to read \(600 MB; at most 512 MB/);
  });
});

describe('valid JSON of the wrong shape', () => {
  it('agent/PID.json = null: that record is left out, the rest reported', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    const [record] = readdirSync(join(dir, 'agent'));
    writeFileSync(join(dir, 'agent', record!), 'null');
    const { summary } = await reportsPartially(dir, /^agent\/\d+\.json: the file is null, not an object; that process record was left out$/);
    assert.ok(summary.cpu && summary.gc && summary.deopts.length > 0);
  });

  it('session.json {"launch":5}: read without it', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    writeFileSync(join(dir, 'session.json'), '{"launch":5}');
    const { summary } = await reportsPartially(dir, /^session\.json: schemaVersion is missing; the run is read without it/);
    assert.ok(summary.cpu && summary.gc);
    assert.ok(summary.deopts.length > 0, 'the code traces that are there are read without the session saying so');
    await htmlHasNoSecret(dir);
  });

  it('session.json with the right version but launch 5', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    editJson(join(dir, 'session.json'), (s) => {
      s.launch = 5;
    });
    await reportsPartially(dir, /^session\.json: launch is a number, not an object; the run is read without it/);
  });

  it('summary.json []: rebuilt from the run\'s files', async () => {
    const dir = copyOfRun();
    writeFileSync(join(dir, 'summary.json'), '[]');
    const { summary } = await reportsPartially(dir, /^summary\.json: the file is an array, not an object; the report is rebuilt/);
    assert.ok(summary.cpu && summary.gc);
  });

  it('summary.json [] with nothing else in the folder: one line, exit 1', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'summary.json'), '[]');
    const r = await runCli(['report', dir]);
    assert.equal(r.code, 1);
    assertCleanError(r.stderr, /summary\.json: the file is an array, not an object, and the folder has no artifacts to rebuild the report from/);
  });

  it('a field 100,000 levels deep in summary.json and in session.json, with --json and --html', async () => {
    const dir = copyOfRun();
    const nest = (file: string) => writeFileSync(join(dir, file), readFileSync(join(dir, file), 'utf8').trimEnd().replace(/}$/, `,"deep":${deepField(100_000)}}`));
    nest('summary.json');
    nest('session.json');
    const { summary } = await reportsPartially(dir, /^summary\.json: nested deeper than 64 levels/);
    assert.ok(summary.warnings.some((w: string) => /^session\.json: nested deeper than 64 levels/.test(w)));
    assert.ok(summary.cpu && summary.gc);
    await htmlHasNoSecret(dir);
  });

  it('load.json of the wrong shape: the load left out', async () => {
    const dir = copyOfRun();
    rmSync(join(dir, 'summary.json'));
    writeFileSync(join(dir, 'load.json'), '{"url":"http://127.0.0.1/","gcInWindow":{"processes":7}}');
    const { summary } = await reportsPartially(dir, /^load\.json: connections is missing; the load figures are left out$/);
    assert.equal(summary.load, undefined);
  });

  it('a lone profile whose call tree is 100,000 frames deep, as HTML', async () => {
    const depth = 100_000;
    const nodes = [];
    for (let i = 1; i <= depth; i++) nodes.push({ id: i, callFrame: { functionName: `f${i % 7}`, scriptId: '1', url: 'file:///a.js', lineNumber: i % 50, columnNumber: 1 }, children: i < depth ? [i + 1] : [] });
    const file = join(tempDir(), 'deep.cpuprofile');
    writeFileSync(file, JSON.stringify({ nodes, startTime: 0, endTime: 4000, samples: [depth, depth, depth, depth], timeDeltas: [0, 1000, 1000, 1000] }));
    const html = join(tempDir(), 'deep.html');
    const r = await runCli(['report', file, '--html', html, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(JSON.parse(r.stdout).warnings.some((w: string) => /flame graph: the call tree is deeper than 1000 frames/.test(w)));
  });

  it('compare with a crafted folder: no secret, no internal error', async () => {
    const dir = copyOfRun();
    editJson(join(dir, 'summary.json'), (s) => {
      s.cpu.profile = `../../../../../../..${outside}`;
    });
    writeFileSync(join(dir, 'session.json'), '{"launch":5}');
    const r = await runCli(['compare', base, dir], { timeoutMs: QUICK_MS });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!(r.stdout + r.stderr).includes(SECRET));
  });
});

describe('--out and --html naming what cannot be written', () => {
  it('profile --out naming an existing file: one line, exit 2, the file kept', async () => {
    const file = join(tempDir(), 'notes.txt');
    writeFileSync(file, 'precious');
    const r = await runCli(['profile', '--out', file, '--', join(PROGRAMS, 'cpu-burn.js')]);
    assert.equal(r.code, 2);
    assertCleanError(r.stderr, /run folder .*notes\.txt already exists and is not a folder; choose another --out/);
    assert.equal(readFileSync(file, 'utf8'), 'precious');
  });

  it('sweep --out naming an existing file: one line, exit 2', async () => {
    const file = join(tempDir(), 'notes.txt');
    writeFileSync(file, 'precious');
    const r = await runCli(['sweep', '--url', 'http://127.0.0.1:9/', '--out', file, '--sizes', '1', '--rounds', '1', '--', join(PROGRAMS, 'cpu-burn.js')]);
    assert.equal(r.code, 2);
    assertCleanError(r.stderr, /sweep folder .*notes\.txt already exists and is not a folder; choose another --out/);
    assert.equal(readFileSync(file, 'utf8'), 'precious');
  });

  it('report --html naming a folder, or a file in a folder that does not exist: one line, exit 2', async () => {
    const folder = tempDir();
    mkdirSync(join(folder, 'sub'));
    for (const [target, why] of [[join(folder, 'sub'), /it is a folder/], [join(folder, 'none', 'r.html'), /its folder does not exist/]] as const) {
      const r = await runCli(['report', base, '--html', target]);
      assert.equal(r.code, 2);
      assertCleanError(r.stderr, why);
    }
  });
});
