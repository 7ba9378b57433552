/** The report's allocation flame graph: built from the run folder's heap profiles, in bytes. */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { heapFlameTree } from '../../../src/core/report/allocFlame';
import { MAX_FLAME_DEPTH } from '../../../src/core/report/flameTree';
import { buildReportModel } from '../../../src/core/report/reportModel';
import { parseHeapProfile } from '../../../src/core/heap/parseHeapProfile';
import { flameTotals } from '../../../src/shared/flameTotals';
import { tempDir } from '../../../scripts/tempDirs';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'heap', 'two-allocators-node24.heapprofile');

let nextId = 1;
function node(functionName: string, selfSize: number, children: unknown[] = [], url = 'file:///app.js') {
  return { callFrame: { functionName, scriptId: '1', url, lineNumber: 2, columnNumber: 4 }, selfSize, id: nextId++, children };
}

describe('heapFlameTree', () => {
  it('weighs frames by their own bytes, heaviest first, with the categories the CPU flame uses', () => {
    const profile = parseHeapProfile(JSON.stringify({ head: node('(root)', 0, [node('small', 100), node('big', 50, [node('leaf', 900)]), node('dep', 10, [], 'file:///x/node_modules/d/i.js')], '') }), 'x');
    const root = heapFlameTree(profile)!;
    assert.equal(root.name, 'all');
    assert.deepEqual(root.children.map((c) => [c.name, c.value, c.category]), [['big', 50, 'user'], ['small', 100, 'user'], ['dep', 10, 'dependency']]);
    assert.equal(root.children[0]!.children[0]!.line, 3, '1-based');
    assert.equal(flameTotals(root).totals.get(root), profile.totalBytes);
  });

  it('folds frames deeper than the limit into the frame at the limit, bytes kept', () => {
    let deepest: unknown = node('leaf', 7);
    for (let i = 0; i < MAX_FLAME_DEPTH + 50; i++) deepest = node('f', 1, [deepest]);
    const profile = parseHeapProfile(JSON.stringify({ head: node('(root)', 0, [deepest], '') }), 'x');
    const root = heapFlameTree(profile)!;
    assert.equal(flameTotals(root).totals.get(root), profile.totalBytes);
    let depth = 0;
    for (let n = root; n.children.length > 0; n = n.children[0]!) depth++;
    assert.equal(depth, MAX_FLAME_DEPTH);
  });
});

describe('the report model of a run with allocations', () => {
  const dir = tempDir('v8lens-allocflame-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  function writeRun(pids: readonly number[]): void {
    mkdirSync(join(dir, 'agent'), { recursive: true });
    mkdirSync(join(dir, 'heap'), { recursive: true });
    const record = { schemaVersion: 1, ppid: 1, threadId: 0, clusterWorkerId: null, hasIpc: false, codeTrace: null, argv: ['node', 'app.js'], execArgv: [], nodeVersion: 'v24.0.0', v8Version: '13', processStartMs: 1, updatedAtMs: 2, final: true, exitCode: 0, stopSignal: null, heapSizeLimitBytes: 1, newSpaceMaxBytes: 1, maxRssKB: 1, cpuUserUs: 1, cpuSystemUs: 1, machine: { cpus: 1, loadavg: [0, 0, 0], totalMemBytes: 1, platform: 'linux' }, cpuProfileFile: null, errors: [] };
    for (const pid of pids) {
      copyFileSync(FIXTURE, join(dir, 'heap', `${pid}.heapprofile`));
      writeFileSync(join(dir, 'agent', `${pid}.json`), JSON.stringify({ ...record, pid, ppid: pid === pids[0] ? 1 : pids[0], allocations: { file: `${pid}.heapprofile`, samplingIntervalBytes: 32768, startMs: 0, endMs: 1000, window: false, liveAtEndBytes: null } }));
    }
    const session = JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'heap', 'alloc-session.json'), 'utf8')) as { pid: number };
    session.pid = pids[0]!;
    writeFileSync(join(dir, 'session.json'), JSON.stringify(session));
  }

  it('one process: its heap profile in bytes, the same total as the summary', async () => {
    writeRun([4100]);
    const model = await buildReportModel(dir);
    assert.ok(model.summary.alloc, model.summary.warnings.join('\n'));
    const flame = model.allocFlame!;
    assert.equal(flame.name, 'all');
    assert.equal(flameTotals(flame).totals.get(flame), model.summary.alloc.totalBytes);
  });

  it('several processes: one root per process under "all", and each process view has its own', async () => {
    rmSync(dir, { recursive: true, force: true });
    writeRun([4200, 4201]);
    const model = await buildReportModel(dir);
    const views = model.processes ?? [];
    assert.equal(views.length, 2, model.summary.warnings.join('\n'));
    assert.deepEqual(model.allocFlame!.children.map((c) => [c.name, c.category]), views.map((v) => [v.label, 'process']));
    for (const v of views) assert.equal(flameTotals(v.allocFlame!).totals.get(v.allocFlame!), v.process.alloc!.totalBytes);
  });

  it('without allocations there is no allocation flame graph', async () => {
    rmSync(join(dir, 'heap'), { recursive: true, force: true });
    rmSync(join(dir, 'summary.json'), { force: true });
    for (const pid of [4200, 4201]) {
      const path = join(dir, 'agent', `${pid}.json`);
      const record = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      delete record.allocations;
      writeFileSync(path, JSON.stringify(record));
    }
    const model = await buildReportModel(dir);
    assert.equal(model.allocFlame ?? null, null);
    assert.ok((model.processes ?? []).every((v) => (v.allocFlame ?? null) === null));
  });
});
