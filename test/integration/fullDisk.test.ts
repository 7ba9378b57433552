/**
 * A full disk (issue 22): a capture, an attach and each export onto a real 120 KB tmpfs end with one
 * line and exit 1, leave a run folder that reads and no output cut short. Mounting needs root; where
 * it cannot be done those tests say so and skip, and the same write errors are injected without a
 * mount instead: a per-file size limit (prlimit --fsize, EFBIG) on the CLI, and /dev/full (ENOSPC) in
 * the unit tests of the writers (test/unit/util/safeWrite.test.ts).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SessionRecord } from '../../src/shared/model/session';
import { CLI, PROGRAMS, REPO, collect, freePort, runCli, startCli, tempDir, waitForOutput, type CliResult } from './cliHarness';
import { connect } from 'node:net';

const mounted: string[] = [];
const children: ChildProcess[] = [];
after(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const dir of mounted) spawnSync('umount', [dir]);
});

/** A fresh tmpfs of `size` at a new folder; null with the reason when this machine cannot mount one. */
function tinyDisk(size: string): { dir: string } | { skip: string } {
  const dir = tempDir('v8-lens-tmpfs-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return { skip: `cannot mount a tmpfs here (${(r.error?.message ?? r.stderr).trim() || `exit ${r.status}`}; it needs root): the writers' unit tests and the prlimit tests below inject the same errors` };
  mounted.push(dir);
  return { dir };
}

/** Files of the folder (recursively) that a write left behind half-done: temporary files of ours. */
function leftovers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tmp$/.test(f) && !f.startsWith('agent/'));
}

function ourLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('v8-lens:'));
}

function assertNoCrash(r: CliResult): void {
  assert.ok(!/^\s+at /m.test(r.stderr), `no stack trace: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /internal error|Unhandled|ERR_UNHANDLED/);
}

/** JSON files of the run folder that are there parse whole. */
function assertWholeRecords(run: string): SessionRecord {
  for (const name of ['session.json', 'summary.json']) {
    const path = join(run, name);
    if (existsSync(path)) assert.doesNotThrow(() => JSON.parse(readFileSync(path, 'utf8')), `${name} is whole`);
  }
  return JSON.parse(readFileSync(join(run, 'session.json'), 'utf8')) as SessionRecord;
}

describe('a full disk during a capture', () => {
  it('profile onto a 120 KB tmpfs: one line, exit 1, the run reads, nothing cut short', { timeout: 60_000 }, async (t) => {
    const disk = tinyDisk('120k');
    if ('skip' in disk) return t.skip(disk.skip);
    const run = join(disk.dir, 'run');
    // 56 KB left: the run starts (its session.json and the 32 KB it keeps for its last records), and
    // the GC trace the CLI writes while the target runs (about 12 KB) outgrows the rest beside the
    // target's own code trace (about 18 KB). Without a V8 log beside the CPU profile (about 160 KB
    // of V8's builtins) a run of this script no longer fills 120 KB on its own.
    writeFileSync(join(disk.dir, 'filler'), Buffer.alloc(64 * 1024));
    const r = await runCli(['profile', '--out', run, '--', join(PROGRAMS, 'gc-churn.js')]);
    assert.equal(r.code, 1, r.stderr);
    assertNoCrash(r);
    const problem = ourLines(r.stderr).find((l) => /could not be written/.test(l));
    assert.match(problem ?? '', /^v8-lens: [\w.-]+ could not be written: no space left on the device \(ENOSPC\): the target was stopped as on Cancel; what was collected until then is kept/);
    const session = assertWholeRecords(run);
    assert.equal(session.status, 'failed', 'session.json records the outcome');
    assert.ok(session.launch.limitations.some((l) => /no space left on the device/.test(l)));
    assert.deepEqual(leftovers(run), []);
    const report = await runCli(['report', run, '--json']);
    assert.equal(report.code, 0, report.stderr);
    assert.ok((JSON.parse(report.stdout) as { warnings: string[] }).warnings.some((w) => /no space left on the device/.test(w)), 'the report says why the run is short');
  });
});

describe('a full disk during an attach', () => {
  let target: ChildProcess;
  let inspector = '';
  before(async () => {
    target = spawn(process.execPath, ['--inspect=127.0.0.1:0', join(PROGRAMS, 'attach-server.js')], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(target);
    const [, url] = await waitForOutput(target, /Debugger listening on (ws:\/\/\S+)/);
    await waitForOutput(target, /listening on \d+/);
    inspector = new URL(url!).host;
  });

  it('attach onto a 48 KB tmpfs: the profiles do not both fit; one line, exit 1, session.json says so, the run reads', { timeout: 60_000 }, async (t) => {
    const disk = tinyDisk('48k');
    if ('skip' in disk) return t.skip(disk.skip);
    const run = join(disk.dir, 'run');
    // Fine allocation samples (a large heap profile): with the default 2 MB both profiles could fit.
    const r = await collect(startCli(['attach', inspector, '--duration', '2', '--alloc-interval', '8192', '--out', run]), 40_000);
    assert.equal(r.code, 1, r.stderr);
    assertNoCrash(r);
    assert.ok(ourLines(r.stderr).some((l) => /^v8-lens: the (CPU|heap) profile could not be written \(no space left on the device \(ENOSPC\)\); what could be written is kept/.test(l)), r.stderr);
    const session = assertWholeRecords(run);
    assert.equal(session.status, 'failed');
    assert.match(session.attach!.reason!, /profile could not be written/);
    for (const dir of ['cpu', 'heap'].filter((d) => existsSync(join(run, d)))) {
      for (const f of readdirSync(join(run, dir))) assert.doesNotThrow(() => JSON.parse(readFileSync(join(run, dir, f), 'utf8')), `${dir}/${f} is whole: no profile cut short`);
    }
    const report = await runCli(['report', run]);
    assert.equal(report.code, 0, report.stderr);
  });
});

describe('a full disk during a sweep', () => {
  it('sweep onto a 120 KB tmpfs: one line, exit 1, sweep.json whole, no target left', { timeout: 120_000 }, async (t) => {
    const disk = tinyDisk('120k');
    if ('skip' in disk) return t.skip(disk.skip);
    const port = await freePort();
    // A service that logs every request: its output.log (and V8's files) fill the disk.
    const script = join(tempDir('v8-lens-chatty-'), 'chatty-server.js');
    writeFileSync(script, `require('http').createServer((req, res) => { console.log('request ' + req.url + ' ' + 'x'.repeat(300)); res.end('ok'); }).listen(${port}, '127.0.0.1');\n`);
    const out = join(disk.dir, 'sweep');
    const r = await runCli(['sweep', '--sizes', '2,4', '--rounds', '1', '--warmup', '0', '--duration', '2', '--url', `http://127.0.0.1:${port}/`, '--out', out, '--', script], { timeoutMs: 100_000 });
    assert.equal(r.code, 1, r.stderr);
    assertNoCrash(r);
    assert.ok(ourLines(r.stderr).some((l) => /^v8-lens: \S+ could not be written: no space left on the device \(ENOSPC\); the sweep was stopped as on Cancel, and the finished runs are kept$/.test(l)), r.stderr);
    const sweep = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as { status: string; warnings: string[] };
    assert.ok(['failed', 'cancelled'].includes(sweep.status), `sweep.json is whole and says it did not finish: ${sweep.status}`);
    if (sweep.status === 'failed') assert.match(sweep.warnings[0]!, /could not be written: no space left on the device/);
    assert.deepEqual(leftovers(out), []);
    const refused = await new Promise<boolean>((resolve) => connect(port, '127.0.0.1').on('connect', () => resolve(false)).on('error', () => resolve(true)));
    assert.ok(refused, 'the target was stopped');
  });
});

describe('a full disk on the exports', () => {
  const source = join(tempDir('v8-lens-export-src-'), 'run');
  before(async () => {
    const r = await runCli(['profile', '--out', source, '--', join(PROGRAMS, 'gc-churn.js')]);
    assert.equal(r.code, 0, r.stderr);
  });

  /** A tmpfs with only `free` bytes left, or the reason it cannot be had. */
  function nearlyFull(free: number): { dir: string } | { skip: string } {
    const disk = tinyDisk('120k');
    if ('skip' in disk) return disk;
    const total = Number(spawnSync('stat', ['-f', '-c', '%a*%S', disk.dir], { encoding: 'utf8' }).stdout.trim().split('*').reduce((a, b) => String(Number(a) * Number(b))));
    writeFileSync(join(disk.dir, 'filler'), Buffer.alloc(Math.max(0, total - free)));
    return disk;
  }

  it('--html, --pprof and --summary onto a full tmpfs: exit 1, one line, no file cut short, --summary left as it was', { timeout: 60_000 }, async (t) => {
    const disk = nearlyFull(0);
    if ('skip' in disk) return t.skip(disk.skip);
    const html = await runCli(['report', source, '--html', join(disk.dir, 'r.html')]);
    assert.equal(html.code, 1, html.stderr);
    assert.match(html.stderr, /^v8-lens: cannot write the report to \S+r\.html: no space left on the device \(ENOSPC\); nothing was written\n$/);
    const pprof = await runCli(['export', source, '--pprof', join(disk.dir, 'cpu.pb.gz')]);
    assert.equal(pprof.code, 1, pprof.stderr);
    assert.match(pprof.stderr, /cannot write the pprof to \S+cpu\.pb\.gz: no space left on the device \(ENOSPC\); nothing was written\n$/);
    assert.deepEqual(readdirSync(disk.dir).sort(), ['filler'], 'no export and no temporary file left');
    // The job summary: what was there stays, whole.
    spawnSync('rm', [join(disk.dir, 'filler')]);
    // Exactly one page, so the appended table needs a new one.
    const earlier = `# earlier steps\n${'x'.repeat(4096 - 17)}\n`;
    writeFileSync(join(disk.dir, 'summary.md'), earlier);
    const total = Number(spawnSync('stat', ['-f', '-c', '%a*%S', disk.dir], { encoding: 'utf8' }).stdout.trim().split('*').reduce((a, b) => String(Number(a) * Number(b))));
    writeFileSync(join(disk.dir, 'filler'), Buffer.alloc(total));
    const gate = await runCli(['compare', source, source, '--fail-on', 'cpu.busy:+10%', '--summary', join(disk.dir, 'summary.md')]);
    assert.equal(gate.code, 1, gate.stderr);
    assert.match(gate.stderr, /^v8-lens: cannot write the summary to \S+summary\.md: no space left on the device \(ENOSPC\); the file is left as it was\n$/);
    assert.equal(readFileSync(join(disk.dir, 'summary.md'), 'utf8'), earlier);
  });

  it('the same with a write error injected without a mount (a 64 KB file-size limit: EFBIG), so every machine runs it', { timeout: 60_000 }, async () => {
    if (spawnSync('prlimit', ['--version']).error) return;
    const out = tempDir('v8-lens-efbig-');
    const limited = (args: string[]) => collect(spawn('prlimit', ['--fsize=65536', process.execPath, CLI, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] }), 60_000);
    const html = await limited(['report', source, '--html', join(out, 'r.html')]);
    assert.equal(html.code, 1, html.stderr);
    assert.match(html.stderr, /^v8-lens: cannot write the report to \S+r\.html: the file would be too large \(EFBIG\); nothing was written\n$/);
    assert.deepEqual(readdirSync(out), [], 'no export and no temporary file left');
    mkdirSync(join(out, 'sub'));
    const folder = await runCli(['report', source, '--html', join(out, 'sub')]);
    assert.equal(folder.code, 2, 'a folder given as the file is usage');
    assert.match(folder.stderr, /cannot write the report to \S+sub: it is a folder \(EISDIR\); nothing was written/);
    assert.deepEqual(readdirSync(out), ['sub']);
  });
});
