/**
 * Hostile files, as a user would open them: `v8-lens report FILE` and the extension host's reader
 * (`buildReportModel`, what Open With… and the report panel call), each in its own Node with its
 * peak memory and time measured. A bomb (a small file that decodes to far more than it is) is
 * refused in one line within 10 s and 500 MB; odd but readable files (negative values, protobuf
 * fields numbered 16 and up) read as what they hold, with a warning for what was put right.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { Summary } from '../../src/shared/model/summary';
import { CLI, PROGRAMS, REPO, collect, tempDir } from './cliHarness';

const PEAK_RSS = join(PROGRAMS, 'peak-rss.cjs');
const PROBE = join(REPO, 'test', 'integration', 'readerProbe.ts');
const MAX_MS = 10_000;
const MAX_RSS = 500 * 1024 * 1024;

interface Measured {
  code: number | null;
  stdout: string;
  stderr: string;
  peakRssBytes: number;
  ms: number;
}

async function measured(args: string[]): Promise<Measured> {
  const file = join(tempDir('v8-lens-rss-'), 'peak.json');
  const child = spawn(process.execPath, ['--require', PEAK_RSS, ...args], { cwd: REPO, env: { ...process.env, PEAK_RSS_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'] });
  const r = await collect(child, 60_000);
  const peak = JSON.parse(readFileSync(file, 'utf8')) as { peakRssBytes: number; ms: number };
  return { ...r, ...peak };
}

/** `v8-lens report FILE` in the CLI. */
const cliReport = (file: string, ...more: string[]) => measured([CLI, 'report', file, ...more]);

/** The extension host's reader on FILE. */
async function hostReader(file: string): Promise<Measured & { result: { ok: boolean; userError?: boolean; message?: string; functions?: number; warnings?: string[] } }> {
  const r = await measured(['--import', 'tsx', PROBE, file]);
  return { ...r, result: JSON.parse(r.stdout) };
}

// ------------------------------------------------------------------ a small profile.proto writer

function varint(value: bigint): Buffer {
  let v = value < 0n ? value + (1n << 64n) : value; // int64: two's complement, ten bytes
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return Buffer.from(out);
}
const tag = (field: number, wire: number) => varint((BigInt(field) << 3n) | BigInt(wire));
const int = (field: number, value: number | bigint) => Buffer.concat([tag(field, 0), varint(BigInt(value))]);
const bytes = (field: number, payload: Buffer) => Buffer.concat([tag(field, 2), varint(BigInt(payload.length)), payload]);
const str = (text: string) => bytes(6, Buffer.from(text, 'utf8'));
/** Fields profile.proto does not have: numbered 16 and up (multi-byte tags), of every wire type. */
const unknownFields = () =>
  Buffer.concat([int(16, 7), bytes(100, Buffer.from('newer field')), Buffer.concat([tag(2047, 5), Buffer.alloc(4, 9)]), Buffer.concat([tag(536870911, 1), Buffer.alloc(8, 9)])]);

const STRINGS = ['', 'samples', 'count', 'cpu', 'nanoseconds', 'main', 'app.js', 'work'];

/**
 * A CPU profile of two functions: work (line 12, called from main) 3 samples = 3 ms, main (line 2)
 * 1 sample = 1 ms. `extra` goes into every message (unknown fields); `negative` makes one more
 * sample's values and one line number negative, as no profiler writes them.
 */
function twoFunctionProfile(options: { extra?: boolean; negative?: boolean } = {}): Buffer {
  const x = options.extra ? unknownFields() : Buffer.alloc(0);
  const valueType = (type: number, unit: number) => Buffer.concat([int(1, type), x, int(2, unit)]);
  const sample = (locations: number[], values: number[]) =>
    Buffer.concat([bytes(1, Buffer.concat(locations.map((l) => varint(BigInt(l))))), x, bytes(2, Buffer.concat(values.map((v) => varint(BigInt(v)))))]);
  const line = (functionId: number, lineNo: number) => Buffer.concat([int(1, functionId), x, int(2, lineNo)]);
  const location = (id: number, functionId: number, lineNo: number) => Buffer.concat([int(1, id), x, bytes(4, line(functionId, lineNo))]);
  const fn = (id: number, name: number, file: number, start: number) => Buffer.concat([int(1, id), int(2, name), x, int(4, file), int(5, start)]);
  return Buffer.concat([
    bytes(1, valueType(1, 2)),
    bytes(1, valueType(3, 4)),
    x,
    bytes(2, sample([2, 1], [3, 3_000_000])),
    bytes(2, sample([1], [1, 1_000_000])),
    ...(options.negative ? [bytes(2, sample([2, 1], [-5, -5_000_000]))] : []),
    bytes(4, location(1, 1, 2)),
    bytes(4, location(2, 2, options.negative ? -3 : 12)),
    bytes(5, fn(1, 5, 6, 1)),
    bytes(5, fn(2, 7, 6, 10)),
    ...STRINGS.map(str),
    bytes(11, valueType(3, 4)),
    int(12, 1_000_000),
    x,
  ]);
}

function selfMs(summary: Summary): Record<string, number> {
  return Object.fromEntries(summary.cpu!.functions.map((f) => [`${f.name} ${f.url}:${f.line}`, Math.round(f.selfMs * 1000) / 1000]));
}

function assertRefused(r: Measured, reason: RegExp, what: string): void {
  assert.equal(r.code, 1, `${what}: exit code; stderr ${r.stderr}`);
  assert.match(r.stderr, reason, what);
  assert.equal(r.stderr.trim().split('\n').length, 1, `${what}: one line, no stack trace: ${r.stderr}`);
  assert.ok(r.ms < MAX_MS, `${what}: refused in ${r.ms} ms`);
  assert.ok(r.peakRssBytes < MAX_RSS, `${what}: peak RSS ${(r.peakRssBytes / 1048576).toFixed(0)} MB`);
}

function assertHostRefused(r: Awaited<ReturnType<typeof hostReader>>, reason: RegExp, what: string): void {
  assert.equal(r.result.ok, false, what);
  assert.equal(r.result.userError, true, `${what}: a one-line UserError, not a crash: ${r.result.message}`);
  assert.match(r.result.message!, reason, what);
  assert.ok(r.ms < MAX_MS, `${what}: refused in ${r.ms} ms in the extension's reader`);
  assert.ok(r.peakRssBytes < MAX_RSS, `${what}: peak RSS ${(r.peakRssBytes / 1048576).toFixed(0)} MB in the extension's reader`);
}

describe('pprof bombs are refused within 10 s and 500 MB, in the CLI and in the extension\'s reader', () => {
  const dir = tempDir('v8-lens-bombs-');

  it('204 KB of gzip holding 200 MiB of empty strings (100 million string-table entries)', { timeout: 120_000 }, async () => {
    const raw = Buffer.alloc(200 * 1024 * 1024);
    for (let i = 0; i < raw.length; i += 2) raw[i] = 0x32; // field 6, length 0
    const file = join(dir, 'strings.pb.gz');
    writeFileSync(file, gzipSync(raw, { level: 9 }));
    assert.ok(readFileSync(file).length < 300 * 1024, 'a small file');
    const reason = /strings\.pb\.gz is refused: it holds a string table of more than 4,000,000 strings/;
    assertRefused(await cliReport(file), reason, 'CLI');
    assertHostRefused(await hostReader(file), reason, 'host');
  });

  it('3 million samples, one stack of 100,000 frames, and a sample value of 2^63 − 1', { timeout: 120_000 }, async () => {
    const cases: [string, Buffer, RegExp][] = [
      ['samples.pb.gz', Buffer.concat([bytes(1, Buffer.concat([int(1, 3), int(2, 4)])), Buffer.alloc(6_000_000, Buffer.from([0x12, 0x00]))]), /is refused: it holds more than 2,000,000 samples/],
      ['deep.pb.gz', Buffer.concat([bytes(1, Buffer.concat([int(1, 3), int(2, 4)])), bytes(2, bytes(1, Buffer.alloc(100_000, 1)))]), /is refused: it holds a stack deeper than 16,384 frames/],
      ['huge.pb.gz', Buffer.concat([bytes(1, Buffer.concat([int(1, 3), int(2, 4)])), bytes(2, bytes(2, varint((1n << 63n) - 1n)))]), /is refused: a sample value of 9\.22e\+18 is beyond any profile/],
    ];
    for (const [name, raw, reason] of cases) {
      const file = join(dir, name);
      writeFileSync(file, gzipSync(raw));
      assertRefused(await cliReport(file), reason, `${name} in the CLI`);
      assertHostRefused(await hostReader(file), reason, `${name} in the host`);
    }
  });

  it('negative values: read as 0 with a warning, never as 18,446,744,073,709,552,000', async () => {
    const file = join(dir, 'negative.pb.gz');
    writeFileSync(file, gzipSync(twoFunctionProfile({ negative: true })));
    const r = await cliReport(file, '--json');
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as Summary;
    assert.deepEqual(selfMs(summary), { 'work app.js:10': 3, 'main app.js:2': 1 }, 'the negative sample adds nothing; the negative line (-3) is unknown, so work is at its start line, 10');
    assert.ok(summary.warnings.includes('2 negative sample values were read as 0 (no profiler writes them)'), summary.warnings.join('\n'));
    assert.ok(summary.warnings.includes('1 negative or impossible line or column number was read as unknown'), summary.warnings.join('\n'));
    assert.ok(!/1844674407|e\+19/.test(r.stdout), 'no wrapped-around int64 anywhere');
    const host = await hostReader(file);
    assert.equal(host.result.ok, true, host.result.message);
    assert.ok(host.result.warnings!.some((w) => /negative sample values/.test(w)));
  });

  it('fields numbered 16 and up (multi-byte tags), of every wire type, in every message: skipped, the figures as without them', async () => {
    const plain = join(dir, 'plain.pb');
    const extra = join(dir, 'extra.pb');
    writeFileSync(plain, twoFunctionProfile());
    writeFileSync(extra, twoFunctionProfile({ extra: true }));
    const a = await cliReport(plain, '--json');
    const b = await cliReport(extra, '--json');
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const expected = { 'work app.js:12': 3, 'main app.js:2': 1 };
    assert.deepEqual(selfMs(JSON.parse(a.stdout) as Summary), expected);
    assert.deepEqual(selfMs(JSON.parse(b.stdout) as Summary), expected);
    assert.equal((JSON.parse(b.stdout) as Summary).cpu!.sampleCount, 4);
    const host = await hostReader(extra);
    assert.deepEqual({ ok: host.result.ok, functions: host.result.functions }, { ok: true, functions: 2 });
  });
});

describe('JSON bombs are refused before JSON.parse builds them, in the CLI and in the extension\'s reader', () => {
  const dir = tempDir('v8-lens-json-bombs-');

  it('a .cpuprofile and a .heapprofile of 60 MB of empty objects (20 million)', { timeout: 120_000 }, async () => {
    const objects = (head: string) => `${head}${'{},'.repeat(20_000_000)}{}]}`;
    const cases: [string, string, RegExp][] = [
      ['objects.cpuprofile', objects('{"nodes":['), /Cannot use CPU profile objects\.cpuprofile: it holds more than 8,000,000 objects and arrays/],
      ['objects.heapprofile', objects('{"head":{"callFrame":{},"selfSize":0,"children":['), /Cannot use heap profile objects\.heapprofile: it holds more than 8,000,000 objects and arrays/],
    ];
    for (const [name, text, reason] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      assertRefused(await cliReport(file), reason, `${name} in the CLI`);
      assertHostRefused(await hostReader(file), reason, `${name} in the host`);
    }
  });

  it('a run folder whose summary.json holds 3 million objects: the summary is set aside with one line, the rest is read', { timeout: 60_000 }, async () => {
    const run = tempDir('v8-lens-json-bomb-run-');
    writeFileSync(join(run, 'summary.json'), `{"x":[${'{},'.repeat(3_000_000)}{}]}`);
    writeFileSync(join(run, 'gc-trace.log'), '[123:0x1]       12 ms: Scavenge 4.1 (5.0) -> 3.2 (6.0) MB, 1.50 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure;\n');
    const r = await measured([CLI, 'report', run, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as Summary;
    assert.ok(summary.warnings.some((w) => /^summary\.json: it holds more than 2,000,000 objects and arrays, so not a file V8 Lens wrote; the report is rebuilt from the run's files$/.test(w)), summary.warnings.join('\n'));
    assert.equal(summary.gc?.totalPauseMs, 1.5, 'the GC trace beside it is read');
    assert.ok(r.ms < MAX_MS && r.peakRssBytes < MAX_RSS, `${r.ms} ms, ${(r.peakRssBytes / 1048576).toFixed(0)} MB`);
  });
});
