import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StdoutDemux } from '../../../src/core/gc/stdoutDemux';

const GC = '[4242:0x3a1b2c0]       41 ms: Scavenge 4.4 (4.5) -> 3.7 (5.5) MB, 0.94 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';

function demuxBytes(chunks: (string | Buffer)[], max?: number, isRunProcess?: (pid: number) => boolean) {
  const v8: [string, boolean][] = [];
  const app: Buffer[] = [];
  // The app's parts are views of the chunks: copied, as a consumer that keeps them must.
  const d = new StdoutDemux({ v8Line: (t, term, kind) => v8.push([kind === 'trace' ? t : `${kind}: ${t}`, term]), app: (b) => app.push(Buffer.from(b)) }, { maxV8LineChars: max, isRunProcess });
  for (const c of chunks) d.write(c);
  d.end();
  return { v8, app: Buffer.concat(app) };
}

function demux(chunks: (string | Buffer)[], max?: number, isRunProcess?: (pid: number) => boolean) {
  const { v8, app } = demuxBytes(chunks, max, isRunProcess);
  return { v8, app: app.toString('utf8') };
}

describe('StdoutDemux', () => {
  it('takes whole V8 lines out and leaves the app output byte for byte', () => {
    const { v8, app } = demux([`hello\r\n${GC}\n[INFO] ok\n[1, 2, 3]\n`]);
    assert.deepEqual(v8, [[GC, true]]);
    assert.equal(app, 'hello\r\n[INFO] ok\n[1, 2, 3]\n');
  });

  it('finds a V8 line printed in the middle of an app line, and the app line continues after it', () => {
    const { v8, app } = demux(['progress: #', `${GC}\n#`, `${GC}\n#\n`]);
    assert.deepEqual(v8, [[GC, true], [GC, true]]);
    assert.equal(app, 'progress: ###\n');
  });

  it('joins a V8 line split across chunks, even inside its prefix', () => {
    const { v8, app } = demux(['a\n[42', '42:0x3a1b2c0]     ', '  41 ms: Scav', 'enge …\nb\n']);
    assert.deepEqual(v8, [['[4242:0x3a1b2c0]       41 ms: Scavenge …', true]]);
    assert.equal(app, 'a\nb\n');
  });

  it("takes V8's pretenuring lines out too, split anywhere, and only for the run's processes", () => {
    const site = '[4242:0x3a1b2c0] pretenuring: AllocationSite(0x1a2c): (created, found, ratio) (2933, 2933, 1.000000) undecided => tenure';
    const { v8, app } = demux(['a\n[4242:0x3a1b2c0] pre', 'tenuring: AllocationSite(0x1a2c): (created, found, ratio) (2933, 2933, 1.000000) undecided => tenure\n', `${GC}\nb\n`]);
    assert.deepEqual(v8, [[site, true], [GC, true]]);
    assert.equal(app, 'a\nb\n');
    const other = demux([`${site}\n`], undefined, (pid) => pid !== 4242);
    assert.deepEqual(other.v8, []);
    assert.equal(other.app, `${site}\n`);
  });

  it('passes app text that only looks like a V8 prefix, and never holds it past the next chunk', () => {
    const { v8, app } = demux(['[12:0xabc] not a gc line\n[', 'x]\n']);
    assert.deepEqual(v8, []);
    assert.equal(app, '[12:0xabc] not a gc line\n[x]\n');
  });

  it('gives a runaway "V8 line" back to the app output instead of growing without bound', () => {
    const start = '[1:0x1] 5 ms: ';
    const { v8, app } = demux([start + 'x'.repeat(200), 'y\nz\n'], 100);
    assert.deepEqual(v8, []);
    assert.equal(app, `${start}${'x'.repeat(200)}y\nz\n`);
  });

  it('offers a last V8 line without newline as cut short', () => {
    assert.deepEqual(demux([`ok\n${GC.slice(0, 60)}`]).v8, [[GC.slice(0, 60), false]]);
  });

  it("takes out the tail of V8's 'marking dependent code' line that V8 prints to stdout, even split across chunks", () => {
    const tail = ') (opt id 12) for deoptimization, reason: code dependencies]';
    const { v8, app } = demux(['listening on 1\n', tail.slice(0, 9), `${tail.slice(9)}\nok (done)\n(x)`]);
    assert.deepEqual(v8, [[`deopt-tail: ${tail}`, true]]);
    assert.equal(app, 'listening on 1\nok (done)\n(x)');
  });

  it("takes out the second line of V8's two-line memory-pool message (Node 26), cut anywhere", () => {
    const head = '[16912:0x24167000:0]       54 ms: Memory pool: Removed pages: 0, removed large pages: 0';
    const tail = ', removed zone reservations: 0';
    const whole = `retained 4\n${head}\n${tail}\n, not V8's\nok\n`;
    for (const size of [1, 2, 5, 13, 64, whole.length]) {
      const chunks: string[] = [];
      for (let i = 0; i < whole.length; i += size) chunks.push(whole.slice(i, i + size));
      const { v8, app } = demux(chunks);
      assert.deepEqual(v8, [[head, true], [`continuation: ${tail}`, true]], `chunks of ${size}`);
      assert.equal(app, "retained 4\n, not V8's\nok\n", `chunks of ${size}`);
    }
  });

  it('leaves a line like the memory-pool tail to the app when it does not follow the message', () => {
    const { v8, app } = demux([`${GC}\n, removed zone reservations: 0\n`, ', removed zone reservations: 1\n']);
    assert.deepEqual(v8, [[GC, true]]);
    assert.equal(app, ', removed zone reservations: 0\n, removed zone reservations: 1\n');
  });

  it('decodes UTF-8 split across chunks', () => {
    const bytes = Buffer.from('ü日本\n', 'utf8');
    assert.equal(demux([bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4)]).app, 'ü日本\n');
  });

  it('passes bytes that are not UTF-8 through unchanged, around and between V8 lines', () => {
    const raw = Buffer.from([0xff, 0xfe, 0x00, 0x80]);
    const split = Buffer.from('ü', 'utf8');
    const chunks = [raw, Buffer.from(`${GC}\n`), split.subarray(0, 1), Buffer.from(`${GC}\n`), split.subarray(1), Buffer.from([0x5b, 0xff, 0x0a])];
    const { v8, app } = demuxBytes(chunks);
    assert.deepEqual(v8, [[GC, true], [GC, true]]);
    assert.equal(app.toString('hex'), Buffer.concat([raw, split, Buffer.from([0x5b, 0xff, 0x0a])]).toString('hex'));
  });

  it('gives every byte back: binary with V8 lines cut anywhere arrives whole', () => {
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + (i >> 3)) & 0xff));
    const whole = Buffer.concat([binary.subarray(0, 1000), Buffer.from(`${GC}\n`), binary.subarray(1000), Buffer.from(`${GC}\n`)]);
    for (const size of [1, 7, 64, 1000]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < whole.length; i += size) chunks.push(whole.subarray(i, i + size));
      const { v8, app } = demuxBytes(chunks);
      assert.equal(v8.length, 2, `chunks of ${size}`);
      assert.ok(app.equals(binary), `chunks of ${size}: the app's bytes unchanged`);
    }
  });

  it("leaves a line that looks like a GC line to the app when its pid is not one of the run's processes", () => {
    const fake = '[1:0x1]   5 ms: my log';
    const fakeScavenge = GC.replace('[4242:', '[1:');
    const isRunProcess = (pid: number) => pid === 4242;
    const { v8, app } = demux([`${fake}\n${GC}\n${fakeScavenge}\n`, '[1:0x', `1]   5 ms: split\n[42`, `42:0x3a1b2c0]   6 ms: Scavenge …\n`], undefined, isRunProcess);
    assert.deepEqual(v8, [[GC, true], ['[4242:0x3a1b2c0]   6 ms: Scavenge …', true]]);
    assert.equal(app, `${fake}\n${fakeScavenge}\n[1:0x1]   5 ms: split\n`);
  });
});
