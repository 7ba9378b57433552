/**
 * Reading a run folder as data: a path that leads out of it (by name or by a link), a FIFO, a
 * device or a file too large for its kind is refused with one line naming it, quickly, and never
 * read.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { num, shape } from '../../../src/shared/model/shapeCheck';
import { RunFileError, openRunFile, readRunJson, readRunText, readableArtifacts, runPath } from '../../../src/core/run/runFiles';
import { readRegularFile, readRegularFileSync } from '../../../src/core/util/files';
import { tempDir } from '../../../scripts/tempDirs';

function runFolder(): string {
  const dir = tempDir('v8-lens-runfiles-');
  mkdirSync(join(dir, 'cpu'));
  writeFileSync(join(dir, 'cpu', 'a.cpuprofile'), '{"nodes":[]}');
  writeFileSync(join(dir, 'record.json'), '{"n":1}');
  return dir;
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/** Rejects when `promise` takes longer than `ms`: a FIFO must never block a read. */
function quickly<T>(promise: Promise<T>, ms = 2000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const LIMIT = { maxBytes: 1024 * 1024, json: { containers: 1000, values: 10_000, depth: 64 } };
const outsider = () => {
  const file = join(tempDir('v8-lens-outside-'), 'secret.txt');
  writeFileSync(file, 'root:x:0:0:secret');
  return file;
};

describe('run folder files', () => {
  it('reads a file inside the folder', async () => {
    const dir = runFolder();
    assert.equal(await readRunText(dir, join(dir, 'cpu', 'a.cpuprofile'), LIMIT), '{"nodes":[]}');
  });

  it('a name from the folder\'s data that leads out of its folder is refused before anything is opened', () => {
    const dir = runFolder();
    for (const name of ['../../../../etc/passwd', '/etc/passwd', '..', '', 'a\0b']) {
      assert.throws(() => runPath(join(dir, 'cpu'), name), (err: unknown) => err instanceof RunFileError && /is not a file inside/.test(err.message), name);
    }
    assert.equal(runPath(join(dir, 'cpu'), 'a.cpuprofile'), join(dir, 'cpu', 'a.cpuprofile'));
  });

  it('a path outside the folder is refused', async () => {
    const dir = runFolder();
    await assert.rejects(readRunText(dir, join(dir, '..', 'x'), LIMIT), /is outside the run folder/);
  });

  it('a link inside the folder that leads out of it is refused, and the file is never read', async () => {
    const dir = runFolder();
    const secret = outsider();
    symlinkSync(secret, join(dir, 'cpu', 'b.cpuprofile'));
    await assert.rejects(readRunText(dir, join(dir, 'cpu', 'b.cpuprofile'), LIMIT), (err: unknown) => {
      assert.ok(err instanceof RunFileError);
      assert.match(err.message, /^cpu\/b\.cpuprofile leads outside the run folder \(to .*secret\.txt\)$/);
      assert.doesNotMatch(err.message, /root:x/);
      return true;
    });
  });

  it('a folder of the run that is a link out of it is refused too', async () => {
    const dir = tempDir('v8-lens-runfiles-');
    const elsewhere = tempDir('v8-lens-outside-');
    writeFileSync(join(elsewhere, 'x.cpuprofile'), '{}');
    symlinkSync(elsewhere, join(dir, 'cpu'));
    await assert.rejects(readRunText(dir, join(dir, 'cpu', 'x.cpuprofile'), LIMIT), /leads outside the run folder/);
  });

  it('a FIFO is refused at once, not waited on', async () => {
    const dir = runFolder();
    mkfifo(join(dir, 'summary.json'));
    await assert.rejects(quickly(readRunText(dir, join(dir, 'summary.json'), LIMIT)), /^RunFileError: summary\.json is a FIFO \(named pipe\), not a regular file$/);
    await assert.rejects(quickly(openRunFile(dir, join(dir, 'summary.json'))), /FIFO/);
    await assert.rejects(quickly(readRegularFile(join(dir, 'summary.json'), LIMIT)), /FIFO/);
    assert.throws(() => readRegularFileSync(join(dir, 'summary.json'), LIMIT), /FIFO/);
  });

  it('/dev/zero linked as a profile is refused at once', async () => {
    const dir = runFolder();
    symlinkSync('/dev/zero', join(dir, 'cpu', 'z.cpuprofile'));
    const started = Date.now();
    await assert.rejects(readRunText(dir, join(dir, 'cpu', 'z.cpuprofile'), LIMIT), /leads outside the run folder \(to \/dev\/zero\)/);
    // Even where it is allowed to look, a device is not a file.
    await assert.rejects(readRegularFile('/dev/zero', LIMIT), /zero is a character device, not a regular file/);
    assert.ok(Date.now() - started < 1000);
  });

  it('a file larger than its kind may be is refused before it is read', async () => {
    const dir = runFolder();
    const big = join(dir, 'cpu', 'big.cpuprofile');
    const fd = openSync(big, 'w');
    closeSync(fd);
    execFileSync('truncate', ['-s', '600M', big]); // sparse: no 600 MB written
    await assert.rejects(
      readRunText(dir, big, { maxBytes: 512 * 1024 * 1024, why: 'the longest text V8 can hold in one string' }),
      /^RunFileError: cpu\/big\.cpuprofile is too large to read \(600 MB; at most 512 MB, the longest text V8 can hold in one string\)$/,
    );
  });

  it('JSON records: ok, missing, or bad with one line', async () => {
    const dir = runFolder();
    const check = shape<{ n: number }>({ n: num });
    assert.deepEqual(await readRunJson(dir, join(dir, 'record.json'), check, LIMIT), { status: 'ok', value: { n: 1 } });
    assert.deepEqual(await readRunJson(dir, join(dir, 'none.json'), check, LIMIT), { status: 'missing' });
    writeFileSync(join(dir, 'null.json'), 'null');
    assert.deepEqual(await readRunJson(dir, join(dir, 'null.json'), check, LIMIT), { status: 'bad', problem: 'null.json: the file is null, not an object' });
    symlinkSync(outsider(), join(dir, 'linked.json'));
    const linked = await readRunJson(dir, join(dir, 'linked.json'), check, LIMIT);
    assert.equal(linked.status, 'bad');
    assert.match((linked as { problem: string }).problem, /^linked\.json leads outside the run folder/);
  });

  it('a JSON record that would build more objects than its kind holds is refused before it is parsed, in one line', async () => {
    const dir = runFolder();
    const check = shape<{ n: number }>({ n: num });
    writeFileSync(join(dir, 'objects.json'), `{"n":1,"x":[${'{},'.repeat(5000)}{}]}`);
    assert.deepEqual(await readRunJson(dir, join(dir, 'objects.json'), check, LIMIT), { status: 'bad', problem: 'objects.json: it holds more than 1,000 objects and arrays, so not a file V8 Lens wrote' });
    writeFileSync(join(dir, 'deep.json'), `{"n":1,"x":${'['.repeat(100)}${']'.repeat(100)}}`);
    assert.deepEqual(await readRunJson(dir, join(dir, 'deep.json'), check, LIMIT), { status: 'bad', problem: 'deep.json: nested deeper than 64 levels, so not a file V8 Lens wrote' });
    writeFileSync(join(dir, 'values.json'), `{"n":1,"x":[${'0,'.repeat(20_000)}0]}`);
    assert.deepEqual(await readRunJson(dir, join(dir, 'values.json'), check, LIMIT), { status: 'bad', problem: 'values.json: it holds more than 10,000 values, so not a file V8 Lens wrote' });
    // Brackets and commas inside strings (escaped quotes too) are text, not structure.
    writeFileSync(join(dir, 'text.json'), JSON.stringify({ n: 2, s: `\\"${'[{,'.repeat(20_000)}` }));
    assert.deepEqual(await readRunJson(dir, join(dir, 'text.json'), check, LIMIT), { status: 'ok', value: { n: 2, s: `\\"${'[{,'.repeat(20_000)}` } });
  });

  it('listed artifacts that may not be read are left out, each with its reason', async () => {
    const dir = runFolder();
    mkfifo(join(dir, 'cpu', 'f.cpuprofile'));
    symlinkSync(outsider(), join(dir, 'cpu', 'l.cpuprofile'));
    const warnings: string[] = [];
    const list = ['a', 'f', 'l'].map((n) => ({ path: join(dir, 'cpu', `${n}.cpuprofile`) }));
    const kept = await quickly(readableArtifacts(dir, list, warnings));
    assert.deepEqual(kept, [list[0]]);
    assert.deepEqual(
      warnings.map((w) => w.replace(/\(to .*\)/, '(to …)')),
      ['cpu/f.cpuprofile is a FIFO (named pipe), not a regular file; not read', 'cpu/l.cpuprofile leads outside the run folder (to …); not read'],
    );
  });
});
