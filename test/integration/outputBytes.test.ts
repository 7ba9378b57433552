/**
 * The app's stdout reaches the CLI's stdout byte for byte: bytes that are not UTF-8 stay as they
 * are, and only V8's own GC lines are taken out. A line the app prints that merely looks like a GC
 * line (another pid than the run's processes) stays in the app's output and out of gc-trace.log.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODES, PROGRAMS, readSession, readSummary, startCli, tempDir } from './cliHarness';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { binaryBytes } = require(join(PROGRAMS, 'binary-stdout.js')) as { binaryBytes(offset: number, length: number): Buffer };

function runCliBytes(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const child = startCli(args, { env });
  const chunks: Buffer[] = [];
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => chunks.push(d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`v8-lens did not finish; stderr: ${stderr}`));
    }, 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks), stderr });
    });
  });
}

describe('the app output, byte for byte', () => {
  it('bytes ff fe 00 80 and 2 MB of binary come out unchanged while GC lines are taken out', async () => {
    const out = join(tempDir(), 'run');
    const kb = 2048;
    const r = await runCliBytes(['profile', '--preset', 'gc', '--out', out, '--', join(PROGRAMS, 'binary-stdout.js')], { BINARY_KB: String(kb) });
    assert.equal(r.code, 0, r.stderr);
    const expected = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x80]), binaryBytes(0, kb * 1024)]);
    const app = r.stdout.subarray(0, expected.length);
    assert.equal(app.subarray(0, 4).toString('hex'), 'fffe0080');
    assert.ok(app.equals(expected), `the ${expected.length} bytes arrive unchanged (first difference at ${firstDifference(app, expected)})`);
    assert.equal(r.stdout[expected.length], 0x0a, 'then only V8 Lens’s own report follows');
    assert.ok(readSummary(out).gc!.eventCount > 0, 'V8 printed GC lines into the same stdout, and they were taken out');
  });

  for (const node of NODES) {
    it(`${node.label}: a fake GC line stays in the app output, real GC lines go to gc-trace.log`, async () => {
      const out = join(tempDir(), 'run');
      const r = await runCliBytes(['profile', '--preset', 'gc', '--node', node.path, '--out', out, '--', join(PROGRAMS, 'fake-gc-lines.js')]);
      assert.equal(r.code, 0, r.stderr);
      const stdout = r.stdout.toString('utf8');
      const app = stdout.slice(0, stdout.indexOf('fake-gc-lines done\n'));
      const appLines = app.split('\n').filter((l) => l !== '');
      assert.equal(appLines.length, 60, `every fake line passed through: ${JSON.stringify(appLines.slice(0, 5))}`);
      assert.equal(appLines.filter((l) => l === '[1:0x1]   5 ms: my log').length, 20);
      assert.equal(appLines.filter((l) => l.startsWith('[1:0x1]       41 ms: Scavenge')).length, 20);
      assert.equal(appLines.filter((l) => l.startsWith('[99999999:0x3a1b2c0]')).length, 20);

      const targetPid = readSession(out).pid!;
      const trace = readFileSync(join(out, 'gc-trace.log'), 'utf8');
      assert.doesNotMatch(trace, /my log|^\[1:0x1\]|^\[99999999:/m, 'no fake line in gc-trace.log');
      const traceLines = trace.split('\n').filter((l) => l !== '');
      assert.ok(traceLines.length > 0, 'V8 printed real GC lines');
      assert.deepEqual(traceLines.filter((l) => !l.startsWith(`[${targetPid}:`)), [], "every line in gc-trace.log is the target's");
      const gc = readSummary(out).gc!;
      assert.ok(gc.eventCount > 0);
      assert.ok(gc.eventCount <= traceLines.length, `${gc.eventCount} events from ${traceLines.length} real lines: none from the app's fakes`);
    });
  }
});

function firstDifference(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}
