/**
 * The report page of a run with sampled allocations, in headless Chromium: the allocation flame
 * graph's tab (bytes in the tooltip), the "GC ← allocations" panel's figures and links, a
 * function name with markup kept as text, and "not collected" (never 0) for a run without them.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { buildReportModel } from '../../src/core/report/reportModel';
import type { FlameNode, ReportModel } from '../../src/shared/model/reportModel';
import { emptySummary, type AllocSummary } from '../../src/shared/model/summary';
import { parseFromReportWebview } from '../../src/shared/reportProtocol';
import { flameFrames, launchBrowser, openWebviewWithModel, writeWebviewPage, pointAtFrame, REPO, tempDir } from './browserHarness';

declare const window: any;
declare const document: any;

const HOSTILE = '<b>bold</b>';
const APP = 'file:///app/server.js';

function frame(name: string, value: number, children: FlameNode[] = [], line = 3): FlameNode {
  return { name, value, children, category: 'user', url: APP, line, column: 5 };
}

const alloc: AllocSummary = {
  totalBytes: 64 * 1024 ** 2,
  bytesPerSecond: 8 * 1024 ** 2,
  bytesPerRequest: 12 * 1024,
  liveAtEndBytes: null,
  samplingIntervalBytes: 32768,
  sampleCount: 2048,
  functions: [
    { name: HOSTILE, url: APP, line: 10, column: 3, selfBytes: 48 * 1024 ** 2, totalBytes: 48 * 1024 ** 2, share: 0.75 },
    { name: 'makeBuffer', url: APP, line: 20, column: 3, selfBytes: 16 * 1024 ** 2, totalBytes: 16 * 1024 ** 2, share: 0.25 },
  ],
};

function model(withAlloc: boolean): ReportModel {
  const summary = emptySummary({ kind: 'run', path: '/runs/a' }, { alloc: withAlloc ? alloc : null });
  return {
    title: 'alloc run',
    source: '/runs/a',
    summary,
    session: null,
    flame: { ...frame('all', 0, [frame('handle', 10)], 0), url: '' },
    allocFlame: withAlloc ? { ...frame('all', 0, [frame('handle', 0, [frame(HOSTILE, 48 * 1024 ** 2, [], 10), frame('makeBuffer', 16 * 1024 ** 2, [], 20)])], 0), url: '' } : null,
    gcEvents: [],
  };
}

/** Two processes: the run's allocations and one root per process; the worker's own are a quarter. */
function twoProcesses(): ReportModel {
  const whole = model(true);
  const workerAlloc: AllocSummary = { ...alloc, totalBytes: 16 * 1024 ** 2, bytesPerSecond: 2 * 1024 ** 2, bytesPerRequest: null, functions: [alloc.functions[1]!] };
  const views = (['4100', '4101'] as const).map((id, i) => {
    const own = i === 0 ? { ...alloc, totalBytes: 48 * 1024 ** 2, bytesPerSecond: 6 * 1024 ** 2, functions: [alloc.functions[0]!] } : workerAlloc;
    const label = i === 0 ? 'main · pid 4100' : 'worker · pid 4101';
    const root: FlameNode = { ...frame(label, 0, [frame(i === 0 ? HOSTILE : 'makeBuffer', own.totalBytes)], 0), category: 'process', url: '' };
    return {
      id,
      label,
      process: { id, pid: Number(id), parentPid: i === 0 ? null : 4100, threadId: 0, role: i === 0 ? 'main' : 'worker', command: 'node app.js', startMs: 0, endMs: 1000, cpu: null, gc: null, deoptCount: null, maxRssMB: null, alloc: own },
      flame: null,
      allocFlame: root,
      cpu: null,
      gc: null,
      gcEvents: [],
      deopts: [],
    } as NonNullable<ReportModel['processes']>[number];
  });
  return { ...whole, summary: { ...whole.summary, processes: views.map((v) => v.process) }, allocFlame: { ...frame('all', 0, views.map((v) => v.allocFlame!), 0), url: '', category: 'idle' }, processes: views };
}

describe('the report page with allocations', () => {
  let browser: Browser;
  const dir = tempDir('v8-lens-alloc-');
  const htmlFile = join(dir, 'panel.html');

  before(async () => {
    browser = await launchBrowser();
    writeWebviewPage(htmlFile);
  });
  after(async () => browser?.close());

  const open = (m: ReportModel) => openWebviewWithModel(browser, htmlFile, m);

  it('has an Allocations tab whose flame graph is in bytes, and a panel with the figures and links', async () => {
    const { page, problems } = await open(model(true));
    assert.equal(await page.locator('#flame-tabs [role="tab"]').count(), 2);
    assert.equal(await page.locator('#flame-section h2').innerText(), 'CPU flame graph');
    await page.locator('#flame-tab-alloc').click();
    await page.waitForSelector('#flame-tab-alloc[aria-selected="true"]');
    assert.equal(await page.locator('#flame-section h2').innerText(), 'Allocation flame graph');
    await pointAtFrame(page, 'makeBuffer');
    const tip = page.locator('#flame-tooltip');
    await tip.waitFor({ state: 'visible' });
    assert.match(await tip.innerText(), /self\s+16\.0 MB · 25\.0% of the allocations/);

    const cards = await page.locator('#alloc-cards').innerText();
    assert.match(cards, /8\.00 MB\/s/);
    assert.match(cards, /12\.0 KB/);
    assert.match(cards, /64\.0 MB/);
    const rows = page.locator('#alloc-functions tbody tr');
    assert.equal(await rows.count(), 2);
    assert.match(await rows.first().innerText(), /75\.0%\s+48\.0 MB\s+<b>bold<\/b>/);
    assert.equal(await page.locator('#alloc-section b, #flame-graph b').count(), 0, 'a function name is text, not markup');

    await rows.nth(1).click();
    const sent = (await page.evaluate(() => window.__sent)) as unknown[];
    const opened = sent.map((msg) => parseFromReportWebview(msg)).filter((msg) => msg?.type === 'openSource');
    assert.deepEqual(opened, [{ type: 'openSource', url: APP, line: 20, column: 3 }]);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('with one process picked, the panel and the allocation flame graph are that process\'s', async () => {
    const { page, problems } = await open(twoProcesses());
    assert.match(await page.locator('#alloc-cards').innerText(), /64\.0 MB/, 'the whole run first');
    await page.locator('#process-table tr[data-process-id="4101"] button').click();
    await page.waitForSelector('#process-table tr[data-process-id="4101"].selected');
    const cards = await page.locator('#alloc-cards').innerText();
    assert.match(cards, /2\.00 MB\/s/);
    assert.match(cards, /16\.0 MB/);
    assert.equal(await page.locator('#alloc-functions tbody tr').count(), 1);
    assert.match(await page.locator('#alloc-section h2').innerText(), /worker · pid 4101/);
    await page.locator('#flame-tab-alloc').click();
    await page.waitForSelector('#flame-tab-alloc[aria-selected="true"]');
    assert.match(await page.locator('#flame-section h2').innerText(), /^Allocation flame graph · worker · pid 4101$/);
    const names = (await flameFrames(page)).map((f) => f.name);
    assert.equal(names.filter((n) => n === 'makeBuffer').length, 1);
    assert.equal(names.filter((n) => n === 'main · pid 4100').length, 0);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('beside the GC: young GCs while sampling, the check against V8\'s trace, the pause estimates and the inlining caveat', async () => {
    const link = { youngGcs: 40, youngGcPauseMs: 120, bytesPerYoungGc: 1.6 * 1024 ** 2, youngGenerationBytes: 16 * 1024 ** 2, traceAllocatedBytes: 63 * 1024 ** 2, ratio: 1.016, disagreement: null };
    const linked: AllocSummary = {
      ...alloc,
      gcLink: link,
      inliningCaveat: 'V8 gives an inlined function\'s allocations to the function it was inlined into: handle (75%) may include what the functions it calls allocated.',
      exactSites: false,
      functions: alloc.functions.map((f) => ({ ...f, youngGcPauseMsEstimate: f.share * 120 })),
    };
    const m = model(true);
    const { page, problems } = await open({ ...m, summary: { ...m.summary, alloc: linked } });
    const card = await page.locator('#alloc-cards [data-card="young-gcs"]').innerText();
    assert.match(card, /Young GCs while sampling\s+40\s+120 ms of pause; one every 1\.60 MB allocated \(young generation 16\.0 MB\)/);
    assert.equal(await page.locator('[data-note="agreement"]').innerText(), 'Checked against V8\'s own account: V8\'s GC trace accounts for 63.0 MB (sampled × 1.02).');
    assert.match(await page.locator('[data-note="inlining"]').innerText(), /handle \(75%\) may include/);
    const header = page.locator('#alloc-functions thead th').nth(2);
    assert.equal(await header.innerText(), 'Est. young-GC pause');
    assert.match((await header.getAttribute('title')) ?? '', /^Estimate: the function's share of all bytes allocated × the young-GC pause/);
    assert.match(await page.locator('#alloc-functions tbody tr').first().innerText(), /75\.0%\s+48\.0 MB\s+≈ 90\.0 ms\s+<b>bold<\/b>/);
    await page.close();

    // When the samples and the trace disagree, the panel says so instead of "checked", in the warning colour.
    const off = { ...linked, gcLink: { ...link, ratio: 3.1, disagreement: 'V8 Lens sampled 64.0 MB allocated; V8\'s GC trace accounts for 20.6 MB in the same time: the samples (2048) overestimate, or much was allocated after the last GC' } };
    const second = await open({ ...m, summary: { ...m.summary, alloc: off } });
    const note = second.page.locator('[data-note="agreement"]');
    assert.match(await note.innerText(), /^V8 Lens sampled 64\.0 MB allocated; V8's GC trace accounts for 20\.6 MB/);
    assert.equal(await note.getAttribute('class'), 'section-note note-warn');
    assert.deepEqual([...problems, ...second.problems], []);
    await second.page.close();
  });

  it('without allocations: no tab, and the panel says not collected, never 0', async () => {
    const { page, problems } = await open(model(false));
    assert.equal(await page.locator('#flame-tabs').count(), 0);
    assert.equal(await page.locator('#flame-section h2').innerText(), 'CPU flame graph');
    const panel = await page.locator('#alloc-section').innerText();
    // A summary from before the reasons: the general one.
    assert.match(panel, /Allocations: not collected \(the default preset samples them\)/);
    assert.doesNotMatch(panel, /\b0 B\b/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('without allocations, with the reason summary.json gives: the panel says that reason, not the preset', async () => {
    const m = model(false);
    const reason = 'the thread ended before its agent could write them (a worker the app terminated itself, or a killed process)';
    const { page, problems } = await open({ ...m, summary: { ...m.summary, allocMissing: reason } });
    const panel = await page.locator('#alloc-section').innerText();
    assert.ok(panel.includes(`Allocations: not collected (${reason})`), panel);
    assert.doesNotMatch(panel, /preset/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('a heap pprof from @datadog/pprof: opens on its heap flame graph, calls its bytes live (not allocated), and says what is not collected', async () => {
    const m = await buildReportModel(join(REPO, 'test', 'fixtures', 'pprof', 'datadog-heap.pb.gz'));
    const { page, problems } = await open(m);
    await page.waitForSelector('#flame-tab-alloc[aria-selected="true"]');
    assert.equal(await page.locator('#flame-section h2').innerText(), 'Heap flame graph (live objects)');
    const total = await page.locator('#alloc-cards [data-card="total"]').innerText();
    assert.match(total, /^In use when taken\s+\d/);
    assert.match(total, /live objects only/);
    assert.doesNotMatch(await page.locator('#alloc-cards').innerText(), /Allocated in total|garbage included/);
    assert.match(await page.locator('#alloc-functions tbody tr').first().innerText(), /makeRecords/);
    assert.match(await page.locator('#gc-section').innerText(), /not collected: a pprof profile has no GC trace/);
    await page.locator('#flame-tab-cpu').click();
    assert.match(await page.locator('#flame-section').innerText(), /this pprof is a heap profile, not a CPU profile/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
