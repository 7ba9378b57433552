/**
 * pprof (profile.proto) out of and into V8 Lens's profiles: the figures survive the round trip,
 * Node's own agent's files (@datadog/pprof, test/fixtures/pprof) read as that agent wrote them,
 * and bad files give one line.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { Profile, ValueType, StringTable } from 'pprof-format';
import { buildCpuModel } from '../../../src/core/cpu/cpuModel';
import { summarizeCpuModel } from '../../../src/core/cpu/cpuSummary';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { summarizeAllocations } from '../../../src/core/heap/allocSummary';
import { parseHeapProfile } from '../../../src/core/heap/parseHeapProfile';
import { pprofFunctionName, v8LensFunctionName } from '../../../src/core/pprof/pprofNames';
import { readPprof } from '../../../src/core/pprof/readPprof';
import { exportPprof } from '../../../src/core/report/exportPprof';
import { loadReport } from '../../../src/core/report/loadReport';
import { UserError } from '../../../src/core/util/errors';
import { tempDir } from '../../../scripts/tempDirs';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');
const CPU_FIXTURE = join(FIXTURES, 'cpu', 'node20-work.cpuprofile');
const HEAP_FIXTURE = join(FIXTURES, 'heap', 'two-allocators-node24.heapprofile');
const DATADOG_WALL = join(FIXTURES, 'pprof', 'datadog-wall.pb.gz');
const DATADOG_HEAP = join(FIXTURES, 'pprof', 'datadog-heap.pb.gz');

const keyOf = (f: { name: string; url: string; line: number; column: number }) => `${f.name}|${f.url}|${f.line}|${f.column}`;

/** The raw file decoded by pprof-format alone: each function's flat value by name (the leaf location's first line). */
function flatByName(file: string, type: string): Map<string, number> {
  const p = Profile.decode(gunzipSync(readFileSync(file)));
  const str = (i: number | bigint) => p.stringTable.strings[Number(i)]!;
  const index = p.sampleType.findIndex((t) => str(t.type) === type);
  assert.ok(index >= 0, `${file} has ${type}`);
  const fn = new Map(p.function.map((f) => [Number(f.id), str(f.name)]));
  const loc = new Map(p.location.map((l) => [Number(l.id), fn.get(Number(l.line[0]!.functionId))!]));
  const out = new Map<string, number>();
  for (const s of p.sample) {
    const name = loc.get(Number(s.locationId[0]))!;
    out.set(name, (out.get(name) ?? 0) + Number(s.value[index]));
  }
  return out;
}

describe('pprof export of a .cpuprofile', () => {
  it('keeps every function\'s self and total time (to the nanosecond) and the sample count', async () => {
    const original = summarizeCpuModel(buildCpuModel(parseCpuProfile(readFileSync(CPU_FIXTURE, 'utf8'), 'node20-work.cpuprofile')), { profileFile: 'x' });
    const out = await exportPprof(CPU_FIXTURE, null);
    assert.equal(out.kind, 'cpu');
    const content = await readPprof(out.bytes, 'export.pb.gz');
    assert.equal(content.kind, 'cpu');
    if (content.kind !== 'cpu') return;
    assert.equal(content.sampleCount, original.sampleCount);
    const back = summarizeCpuModel(buildCpuModel(content.profile), { profileFile: 'x' });
    const backBy = new Map(back.functions.map((f) => [keyOf(f), f]));
    assert.ok(original.functions.length > 10);
    for (const f of original.functions) {
      const b = backBy.get(keyOf(f));
      assert.ok(b, `${f.name} ${f.url}:${f.line} survives`);
      assert.ok(Math.abs(b.selfMs - f.selfMs) < 1e-3 && Math.abs(b.totalMs - f.totalMs) < 1e-3, `${f.name}: self ${b.selfMs} vs ${f.selfMs}, total ${b.totalMs} vs ${f.totalMs}`);
    }
  });

  it('writes cpu/nanoseconds as the default type after samples/count, and 1-based lines', async () => {
    const out = await exportPprof(CPU_FIXTURE, null);
    const p = Profile.decode(gunzipSync(out.bytes));
    const str = (i: number | bigint) => p.stringTable.strings[Number(i)]!;
    assert.deepEqual(p.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`), ['samples/count', 'cpu/nanoseconds']);
    assert.equal(str(p.defaultSampleType), 'cpu');
    const raw = JSON.parse(readFileSync(CPU_FIXTURE, 'utf8')) as { nodes: { callFrame: { functionName: string; lineNumber: number } }[] };
    const named = raw.nodes.find((n) => n.callFrame.functionName !== '' && n.callFrame.lineNumber >= 0 && !n.callFrame.functionName.startsWith('('))!;
    const fn = p.function.find((f) => str(f.name) === named.callFrame.functionName)!;
    assert.equal(Number(fn.startLine), named.callFrame.lineNumber + 1, 'the 0-based line of the .cpuprofile becomes 1-based');
  });

  it('refuses what the file does not have, in one line', async () => {
    await assert.rejects(exportPprof(CPU_FIXTURE, 'alloc'), (err: unknown) => err instanceof UserError && /no allocations/.test(err.message));
    await assert.rejects(exportPprof(HEAP_FIXTURE, 'cpu'), (err: unknown) => err instanceof UserError && /heap profile/.test(err.message));
  });
});

describe('pprof export of a .heapprofile', () => {
  it('keeps each function\'s bytes, as inuse_space (a profile from elsewhere kept only what was alive)', async () => {
    const profile = parseHeapProfile(readFileSync(HEAP_FIXTURE, 'utf8'), 'h');
    const original = summarizeAllocations(profile, { durationMs: null, samplingIntervalBytes: 0, requests: null, liveAtEndBytes: null });
    const out = await exportPprof(HEAP_FIXTURE, null);
    const p = Profile.decode(gunzipSync(out.bytes));
    const str = (i: number | bigint) => p.stringTable.strings[Number(i)]!;
    assert.deepEqual(p.sampleType.map((t) => `${str(t.type)}/${str(t.unit)}`), ['inuse_space/bytes'], 'no object counts: the inspector gives size × count only');
    const content = await readPprof(out.bytes, 'h.pb.gz');
    assert.ok(content.kind === 'heap' && content.inUse);
    if (content.kind !== 'heap') return;
    const back = summarizeAllocations(content.profile, { durationMs: null, samplingIntervalBytes: 0, requests: null, liveAtEndBytes: null });
    assert.equal(back.totalBytes, original.totalBytes);
    const backBy = new Map(back.functions.map((f) => [keyOf(f), f]));
    for (const f of original.functions) assert.equal(backBy.get(keyOf(f))?.selfBytes, f.selfBytes, `${f.name} ${f.url}:${f.line}`);
  });
});

describe('pprof from @datadog/pprof (Node\'s own agent), in v8-lens report', () => {
  it('a wall profile: the functions and times the agent wrote, and its sample count', async () => {
    const summary = await loadReport(DATADOG_WALL);
    assert.equal(summary.source.kind, 'pprof');
    const flat = flatByName(DATADOG_WALL, 'wall');
    const fn = (name: string) => summary.cpu!.functions.filter((f) => f.name === name).reduce((sum, f) => sum + f.selfMs, 0);
    for (const name of ['sortCopies', 'hashRounds', 'makeRecords']) {
      assert.ok(Math.abs(fn(name) - flat.get(name)! / 1e6) < 1e-3, `${name}: ${fn(name)} ms vs ${flat.get(name)! / 1e6} ms in the file`);
    }
    assert.ok(fn('sortCopies') > fn('hashRounds'), 'the workload\'s heavier function is heavier');
    const counted = flatByName(DATADOG_WALL, 'sample');
    assert.equal(summary.cpu!.sampleCount, [...counted.values()].reduce((a, b) => a + b, 0));
    assert.ok(summary.cpu!.functions.some((f) => f.name === '(anonymous)' && f.line === 13), 'the agent\'s (anonymous:L#13:C#17) reads as an anonymous function at line 13');
    assert.ok(summary.warnings.some((w) => /no timeline/.test(w)), 'it says why there is no time order');
  });

  it('a heap profile: live bytes per function, said to be live objects only', async () => {
    const summary = await loadReport(DATADOG_HEAP);
    const alloc = summary.alloc!;
    assert.equal(alloc.liveOnly, true);
    assert.equal(alloc.samplingIntervalBytes, 32768, 'the period is the sampling interval');
    const flat = flatByName(DATADOG_HEAP, 'inuse_space');
    const total = [...flat.values()].reduce((a, b) => a + b, 0);
    assert.equal(alloc.totalBytes, total);
    const records = alloc.functions.find((f) => f.name === 'makeRecords')!;
    assert.equal(records.selfBytes, flat.get('makeRecords'));
    assert.equal(alloc.functions[0]!.name, 'makeRecords', 'what the workload keeps alive is the top');
  });
});

describe('pprof that V8 Lens cannot read', () => {
  it('a cut gzip, bytes that are not profile.proto and an unknown kind each give one line', async () => {
    const good = readFileSync(DATADOG_WALL);
    const bad: [Uint8Array, RegExp][] = [
      [good.subarray(0, good.length - 40), /cut short/],
      [gzipSync(Buffer.from('this is not a protobuf message at all, just text')), /not a pprof profile/],
    ];
    const strings = new StringTable();
    const contention = new Profile({ sampleType: [new ValueType({ type: strings.dedup('contentions'), unit: strings.dedup('count') })], stringTable: strings });
    bad.push([gzipSync(contention.encode()), /contentions\/count: V8 Lens reads CPU or wall time/]);
    for (const [bytes, reason] of bad) {
      await assert.rejects(readPprof(bytes, 'x.pb.gz'), (err: unknown) => err instanceof UserError && reason.test(err.message) && !err.message.includes('\n'), String(reason));
    }
  });

  it('v8-lens report of a bad pprof is a UserError, not a crash', async () => {
    const file = join(tempDir('v8-lens-pprof-'), 'cut.pb.gz');
    const good = readFileSync(DATADOG_HEAP);
    writeFileSync(file, good.subarray(0, 100));
    await assert.rejects(loadReport(file), (err: unknown) => err instanceof UserError);
  });
});

describe('pprof function names', () => {
  it('anonymous functions are named by file and place, as @datadog/pprof names them by place, and read back as (anonymous)', () => {
    assert.equal(pprofFunctionName({ name: '', url: 'a.js', line: 12, column: 20 }), '(anonymous:a.js:L#12:C#20)');
    assert.equal(pprofFunctionName({ name: '(anonymous)', url: '', line: 4, column: 2 }), '(anonymous:L#4:C#2)', 'an eval without a name keeps the place only');
    assert.equal(pprofFunctionName({ name: 'handle', url: 'a.js', line: 3, column: 1 }), 'handle');
    assert.equal(pprofFunctionName({ name: '(garbage collector)', url: '', line: 0, column: 0 }), '(garbage collector)');
    assert.equal(v8LensFunctionName('(anonymous:L#12:C#20)'), '(anonymous)', "@datadog/pprof's form");
    assert.equal(v8LensFunctionName('(anonymous:src/server.js:L#1:C#1)'), '(anonymous)');
    assert.equal(v8LensFunctionName('(anonymous:C:\\app\\x.js:L#1:C#1)'), '(anonymous)');
    assert.equal(v8LensFunctionName('sortCopies'), 'sortCopies');
  });

  it("every module's top level gets a name of its own: relative to the run's folder, a dependency from its package, node: as Node names it", () => {
    const top = (url: string, root: string | null = '/srv/app') => pprofFunctionName({ name: '', url, line: 1, column: 1 }, root);
    assert.equal(top('file:///srv/app/server.js'), '(anonymous:server.js:L#1:C#1)');
    assert.equal(top('file:///srv/app/lib/one/index.js'), '(anonymous:lib/one/index.js:L#1:C#1)');
    assert.equal(top('file:///srv/app/lib/two/index.js'), '(anonymous:lib/two/index.js:L#1:C#1)');
    assert.equal(top('file:///srv/app/node_modules/express/lib/router/index.js'), '(anonymous:express/lib/router/index.js:L#1:C#1)');
    assert.equal(top('/srv/app/node_modules/@scope/pkg/index.js'), '(anonymous:@scope/pkg/index.js:L#1:C#1)', 'heap profiles name a script by its path');
    assert.equal(top('node:internal/main/run_main_module'), '(anonymous:node:internal/main/run_main_module:L#1:C#1)');
    assert.equal(top('file:///opt/other/x.js'), '(anonymous:/opt/other/x.js:L#1:C#1)', 'outside the run folder: the whole path, never a name another file could share');
    assert.equal(top('file:///srv/app/server.js', null), '(anonymous:/srv/app/server.js:L#1:C#1)', 'without a run folder: the whole path');
  });
});
