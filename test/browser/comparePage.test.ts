/**
 * The compare webview in a real headless Chromium: the VS Code panel page (webviewPageHtml with
 * the compare bundle, under its strict nonce CSP) with a stand-in for the webview API, fed the
 * model of two real runs of the same program at 1 MB and 16 MB semi-space, of two real runs of an
 * HTTP service under load (and one of them against a run without load), of two generated profiles
 * with hostile function names, and of two where a function moved by a line. Every page must draw without a CSP violation, console
 * error or dialog; the flame graph's frames carry d3-flame-graph's differential `delta`.
 *
 * The compare bundle is built here with a one-off esbuild call (same settings as the report's
 * bundle) into a temp folder, so the test does not depend on scripts/build.mjs having an entry.
 * Screenshots go to $COMPARE_SCREENSHOTS or a temp folder (never docs/).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { buildCompareModel, type CompareModel } from '../../src/core/report/compareModel';
import type { ReportModel } from '../../src/shared/model/reportModel';
import { standaloneReportHtml, webviewPageHtml } from '../../src/core/report/reportPage';
import { parseFromCompareWebview, type FromCompareWebview } from '../../src/shared/compareProtocol';
import { CLI, fakeVsCodeApiScript, launchBrowser, openReport, PROGRAMS, REPO, runCli, tempDir } from './browserHarness';

// Browser globals used inside page.evaluate callbacks, which run in the page. This file is
// type-checked with the Node libs only, so they are declared here (no code is emitted).
declare const document: any;
declare const window: any;
declare function getComputedStyle(element: unknown): { color: string; backgroundColor: string };

const NONCE = 'Y29tcGFyZW5vbmNlY29tcGFyZQ==';

interface Problems {
  cspViolations: string[];
  errors: string[];
  dialogs: string[];
}

async function buildCompareBundle(outdir: string): Promise<void> {
  await build({
    entryPoints: [join(REPO, 'webview', 'compare', 'main.ts')],
    outfile: join(outdir, 'compare.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['chrome120'],
    minify: true,
    legalComments: 'eof',
    logLevel: 'warning',
  });
}

function profileRun(out: string, semiSpaceMB: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'profile', '--out', out, '--preset', 'cpu-gc', '--semi-space', String(semiSpaceMB), '--', join(PROGRAMS, 'alloc-heavy.js')], {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`v8-lens profile exited ${code}: ${stderr}`));
    });
  });
}

/** The example HTTP service under load for a 1 s window (it prints its URL: --url auto). */
async function profileUnderLoad(out: string, semiSpaceMB: number): Promise<void> {
  const server = join(REPO, 'examples', 'http-service', 'server.js');
  const r = await runCli(['profile', '--out', out, '--preset', 'cpu-gc-alloc', '--semi-space', String(semiSpaceMB), '--url', 'auto', '--duration', '1', '--connections', '4', '--', server], 90_000);
  if (r.code !== 0) throw new Error(`v8-lens profile --url exited ${r.code}: ${r.stderr}`);
}

/** Two profiles of 1 ms samples where `work` starts a line lower in B (a line was added above it) and got 40 ms slower. */
function writeMovedProfiles(dir: string): { a: string; b: string } {
  const write = (file: string, workLine: number, workSamples: number) => {
    const frame = (id: number, functionName: string, lineNumber: number) => ({ id, callFrame: { functionName, scriptId: '1', url: 'file:///app/server.js', lineNumber, columnNumber: 2 }, hitCount: 0 });
    const nodes = [
      { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [2] },
      { ...frame(2, 'main', 0), children: [3, 4] },
      frame(3, 'work', workLine - 1),
      frame(4, 'helper', workLine + 9),
    ];
    const samples = [...Array<number>(workSamples).fill(3), ...Array<number>(50).fill(4)];
    writeFileSync(file, JSON.stringify({ nodes, startTime: 1_000_000, endTime: 1_000_000 + (samples.length + 1) * 1000, samples, timeDeltas: samples.map(() => 1000) }));
  };
  const a = join(dir, 'moved-a.cpuprofile');
  const b = join(dir, 'moved-b.cpuprofile');
  write(a, 10, 100);
  write(b, 11, 140);
  return { a, b };
}

/** Two profiles of 1 ms samples whose function names are markup; `evil` gets more time in B, `<b>gone</b>` is only in A. */
function writeHostileProfiles(dir: string): { a: string; b: string } {
  const names = { img: '<img src=x onerror=alert(1)>', script: '</script><script>alert(2)</script>', gone: '<b>gone</b>' };
  const write = (file: string, counts: Record<string, number>) => {
    const frames = Object.keys(counts);
    const nodes = [
      { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: frames.map((_, i) => i + 2) },
      ...frames.map((name, i) => ({ id: i + 2, callFrame: { functionName: name, scriptId: '1', url: 'file:///app/<i>evil</i>.js', lineNumber: 3 + i * 10, columnNumber: 4 }, hitCount: 0 })),
    ];
    const samples: number[] = [];
    frames.forEach((name, i) => {
      for (let k = 0; k < counts[name]!; k++) samples.push(i + 2);
    });
    writeFileSync(file, JSON.stringify({ nodes, startTime: 1_000_000, endTime: 1_000_000 + (samples.length + 1) * 1000, samples, timeDeltas: samples.map(() => 1000) }));
  };
  const a = join(dir, 'hostile-a.cpuprofile');
  const b = join(dir, 'hostile-b.cpuprofile');
  write(a, { [names.img]: 100, [names.script]: 200, [names.gone]: 80 });
  write(b, { [names.img]: 300, [names.script]: 200 });
  return { a, b };
}

describe('compare webview in Chromium', { timeout: 240_000 }, () => {
  let browser: Browser;
  let dir: string;
  let htmlFile: string;
  let realModel: CompareModel;
  let hostileModel: CompareModel;
  let loadModel: CompareModel;
  let oneLoadModel: CompareModel;
  let movedModel: CompareModel;
  let runA: string;
  let runB: string;
  let loadB16: string;

  before(async () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is built (npm run build)');
    dir = tempDir('v8-lens-compare-browser-');
    const assets = join(dir, 'assets');
    runA = join(dir, 'run-1mb');
    runB = join(dir, 'run-16mb');
    const [loadA, loadB] = [join(dir, 'load-1mb'), join(dir, 'load-16mb')];
    loadB16 = loadB;
    await Promise.all([buildCompareBundle(assets), profileRun(runA, 1), profileRun(runB, 16)]);
    // Under load one after the other: two services and their load generators at once would fight over two cores.
    await profileUnderLoad(loadA, 1);
    await profileUnderLoad(loadB, 16);
    const hostile = writeHostileProfiles(dir);
    const moved = writeMovedProfiles(dir);
    [realModel, hostileModel, loadModel, oneLoadModel, movedModel] = await Promise.all([
      buildCompareModel(runA, runB),
      buildCompareModel(hostile.a, hostile.b),
      buildCompareModel(loadA, loadB),
      buildCompareModel(runA, loadB),
      buildCompareModel(moved.a, moved.b),
    ]);
    htmlFile = join(dir, 'compare.html');
    writeFileSync(
      htmlFile,
      webviewPageHtml({
        cspSource: 'file:',
        nonce: NONCE,
        scriptUri: pathToFileURL(join(assets, 'compare.js')).href,
        styleUris: [pathToFileURL(join(assets, 'compare.css')).href],
        title: 'V8 Lens compare',
      }),
    );
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (dir && process.env.KEEP_BROWSER_TEST_FILES !== '1') rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the panel page with a stand-in host that records what the page posts, and sends it `model`. */
  async function open(model: CompareModel, options: { colorScheme?: 'light' | 'dark' } = {}): Promise<{ page: Page; problems: Problems }> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, colorScheme: options.colorScheme ?? 'light' });
    const page = await context.newPage();
    const problems: Problems = { cspViolations: [], errors: [], dialogs: [] };
    page.on('pageerror', (e) => problems.errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.errors.push(m.text());
    });
    page.on('dialog', (d) => {
      problems.dialogs.push(d.message());
      void d.dismiss();
    });
    await page.exposeBinding('__compareCsp', (_s, text: string) => void problems.cspViolations.push(text));
    await page.addInitScript(fakeVsCodeApiScript('__compareCsp'));
    await page.goto(pathToFileURL(htmlFile).href);
    await page.waitForFunction(() => window.__sent.some((m: { type: string }) => m.type === 'ready'));
    await page.evaluate((m) => window.postMessage({ type: 'model', model: m }, '*'), JSON.parse(JSON.stringify(model)) as CompareModel);
    await page.waitForSelector('html[data-report-ready="true"]');
    await page.waitForTimeout(400); // labels are written after the (short) transition
    return { page, problems };
  }

  function assertClean(problems: Problems): void {
    assert.deepEqual(problems.cspViolations, [], 'no CSP violations');
    assert.deepEqual(problems.errors, [], 'no errors');
    assert.deepEqual(problems.dialogs, [], 'no dialogs');
  }

  async function sent(page: Page): Promise<FromCompareWebview[]> {
    const raw = (await page.evaluate(() => window.__sent)) as unknown[];
    const parsed = raw.map((m) => parseFromCompareWebview(m));
    assert.ok(parsed.every((m) => m !== null), `every message passes the host's check: ${JSON.stringify(raw)}`);
    return parsed as FromCompareWebview[];
  }

  /** Frames drawn, with their hierarchy node's delta (computeDelta) and fill. */
  async function frames(page: Page): Promise<{ name: string; delta: number | undefined; dataDelta: number; presence: string; fill: string }[]> {
    return page.$$eval('#flame-graph svg g', (gs) =>
      gs.map((g) => {
        const d = (g as unknown as { __data__: { delta?: number; data: { name: string; delta: number; presence: string } } }).__data__;
        return { name: d.data.name, delta: d.delta, dataDelta: d.data.delta, presence: d.data.presence, fill: g.querySelector('rect')!.getAttribute('fill')! };
      }),
    );
  }

  it('draws two real runs: both headers, GC figures with verdicts, a differential flame graph, top changes', async () => {
    const { page, problems } = await open(realModel);
    const labelA = await page.locator('[data-run-label="base"]').innerText();
    const labelB = await page.locator('[data-run-label="other"]').innerText();
    assert.match(labelA, /^A: alloc-heavy\.js 1 MB · \d\d:\d\d$/);
    assert.match(labelB, /^B: alloc-heavy\.js 16 MB · \d\d:\d\d$/);
    const cardA = await page.locator('.run-card[data-side="base"]').innerText();
    assert.ok(cardA.includes(realModel.base.nodeVersion!), cardA);
    assert.match(cardA, /--max-semi-space-size=1/);

    // GC: 16 MB scavenges far less than 1 MB, which the table calls better.
    const scav = page.locator('#compare-metrics tr[data-key="gc.Scavenge.count"]');
    assert.equal(await scav.getAttribute('data-verdict'), 'better');
    const scavText = await scav.innerText();
    assert.match(scavText, /Scavenge count/);
    assert.match(scavText, /−\d/);
    assert.match(scavText, /better/);
    assert.equal(await page.locator('#compare-metrics tr[data-key="semiSpaceRequested"]').getAttribute('data-verdict'), 'info');
    assert.match(await page.locator('#compare-metrics tr[data-key="gcShare"]').innerText(), /pp/);
    const better = await page.$eval('#compare-metrics tr[data-key="gc.Scavenge.count"] td.change', (td: any) => getComputedStyle(td).color);
    const neutral = await page.$eval('#compare-metrics tr[data-key="semiSpaceRequested"] td.change', (td: any) => getComputedStyle(td).color);
    assert.notEqual(better, neutral, 'a verdict is coloured');

    // The flame graph: frames carry the differential delta, summed over subtrees by d3-flame-graph.
    const drawn = await frames(page);
    assert.ok(drawn.length > 5, `${drawn.length} frames`);
    assert.ok(drawn.every((f) => typeof f.delta === 'number'), 'computeDelta gave every frame a delta');
    assert.ok(drawn.some((f) => f.delta !== 0), 'something changed between the runs');
    assert.ok(new Set(drawn.map((f) => f.fill)).size > 1, 'frames are coloured by their change');
    assert.equal(await page.locator('#flame-graph').getAttribute('data-size-by'), 'other');
    assert.equal(await page.locator('#flame-graph').getAttribute('data-normalization'), 'ms');
    assert.match(await page.locator('#compare-basis-text').innerText(), /milliseconds/);

    // The tooltip: A, B and the change, self and total.
    await page.locator('#flame-graph g').nth(1).hover();
    const tip = page.locator('#flame-tooltip');
    await tip.waitFor({ state: 'visible' });
    const text = await tip.innerText();
    assert.match(text, /A\s+B\s+change/);
    assert.match(text, /self\s+[\d.,]+ ms\s+[\d.,]+ ms\s+[+−]?[\d.,]+ ms/);
    assert.match(text, /total\s+[\d.,]+ ms\s+[\d.,]+ ms/);

    // Zoom on click, reset.
    const before = Number(await page.locator('#flame-graph').getAttribute('data-frame-count'));
    await page.locator('#flame-graph g').nth(1).click();
    await page.waitForTimeout(400);
    assert.match(await page.locator('#flame-zoomed').innerText(), /^Zoomed into /);
    await page.locator('#flame-reset').click();
    await page.waitForTimeout(400);
    assert.equal(Number(await page.locator('#flame-graph').getAttribute('data-frame-count')), before);

    // Shares: the flame graph and the top lists switch unit; the page says what is compared.
    await page.locator('#compare-share').click();
    await page.waitForTimeout(300);
    assert.equal(await page.locator('#flame-graph').getAttribute('data-normalization'), 'share');
    assert.match(await page.locator('#compare-basis-text').innerText(), /share of each profile/);
    const table = page.locator('#top-increases, #top-decreases').first();
    if ((await table.getAttribute('data-normalization')) !== null) assert.equal(await table.getAttribute('data-normalization'), 'share');
    await page.locator('#compare-share').click();
    await page.waitForTimeout(300);
    assert.equal(await page.locator('#flame-graph').getAttribute('data-normalization'), 'ms');

    // Size by A.
    await page.locator('#flame-size-by-base').click();
    await page.waitForTimeout(300);
    assert.equal(await page.locator('#flame-graph').getAttribute('data-size-by'), 'base');

    // Search: plain text.
    await page.locator('#flame-search').click();
    await page.keyboard.type('.*');
    await page.waitForTimeout(400);
    assert.equal(await page.locator('#flame-search-info').innerText(), 'no frame matches');
    assertClean(problems);
    await page.context().close();
  });

  it('colours by d3-flame-graph’s differential convention: red = more time in B, blue = less', async () => {
    const { page, problems } = await open(hostileModel);
    await page.locator('#flame-size-by-base').click(); // so the frame gone in B has a width
    await page.waitForTimeout(400);
    const drawn = await frames(page);
    const rgb = (fill: string) => fill.match(/\d+/g)!.map(Number) as [number, number, number];
    const more = drawn.find((f) => f.name === '<img src=x onerror=alert(1)>')!;
    const less = drawn.find((f) => f.name === '<b>gone</b>')!;
    const same = drawn.find((f) => f.name === '</script><script>alert(2)</script>')!;
    assert.ok(more && less && same, JSON.stringify(drawn.map((f) => f.name)));
    assert.equal(more.dataDelta, 200);
    assert.equal(less.dataDelta, -80);
    assert.equal(less.presence, 'base');
    assert.equal(same.dataDelta, 0);
    const [mr, , mb] = rgb(more.fill);
    const [lr, , lb] = rgb(less.fill);
    const [sr, sg, sb] = rgb(same.fill);
    assert.ok(mr > mb + 40, `more time in B is red: ${more.fill}`);
    assert.ok(lb > lr + 40, `less time in B is blue: ${less.fill}`);
    assert.ok(Math.max(sr, sg, sb) - Math.min(sr, sg, sb) < 20, `no change is grey: ${same.fill}`);
    assertClean(problems);
    await page.context().close();
  });

  it('shows hostile function names as text in labels, tooltip and tables, and runs none of them', async () => {
    const { page, problems } = await open(hostileModel);
    const labels = await page.$$eval('#flame-graph .d3-flame-graph-label', (els) => els.map((e) => e.textContent));
    assert.ok(labels.includes('<img src=x onerror=alert(1)>'), labels.join(' | '));
    assert.ok(labels.includes('</script><script>alert(2)</script>'), labels.join(' | '));
    await page.locator('#flame-graph g[name="<img src=x onerror=alert(1)>"]').hover();
    const tip = await page.locator('#flame-tooltip').innerText();
    assert.match(tip, /<img src=x onerror=alert\(1\)>/);
    assert.match(tip, /<i>evil<\/i>\.js:4:5/);
    assert.match(tip, /\+200\.0 ms \(\+200%\)/);
    const increases = await page.locator('#top-increases').innerText();
    assert.ok(increases.includes('<img src=x onerror=alert(1)>'), increases);
    const decreases = await page.locator('#top-decreases').innerText();
    assert.ok(decreases.includes('<b>gone</b>'), decreases);
    assert.match(decreases, /gone in B/);
    assert.equal(await page.locator('img').count(), 0, 'no element was made from the names');
    assert.equal(await page.locator('b, i').count(), 0);
    assert.equal(await page.locator('script').count(), 1, 'only the page’s own script');
    await page.locator('#flame-search').click();
    await page.keyboard.type('<script>');
    await page.waitForTimeout(400);
    assert.equal(await page.locator('#flame-graph').getAttribute('data-search-matches'), '1');
    // A model with no GC on either side says so instead of an empty table.
    assert.match(await page.locator('#metrics-section').innerText(), /neither run traced GC/);
    assertClean(problems);
    await page.context().close();
  });

  it('posts openSource (with the run), openReport and swap through the protocol', async () => {
    const { page, problems } = await open(hostileModel);
    await page.locator('.open-report[data-side="base"]').click();
    await page.locator('#compare-swap').click();
    await page.locator('#flame-graph g[name="<img src=x onerror=alert(1)>"]').click({ modifiers: ['Control'] });
    assert.equal(await page.locator('#flame-zoomed').innerText(), '', 'Ctrl-click opens, it does not zoom');
    await page.locator('#top-decreases tbody tr.clickable').first().click();
    const messages = await sent(page);
    assert.deepEqual(messages.slice(0, 3).map((m) => m.type), ['ready', 'openReport', 'swap']);
    assert.deepEqual(messages[1], { type: 'openReport', side: 'base' });
    const opens = messages.filter((m): m is Extract<FromCompareWebview, { type: 'openSource' }> => m.type === 'openSource');
    assert.equal(opens.length, 2);
    assert.deepEqual(opens[0], { type: 'openSource', side: 'other', url: 'file:///app/<i>evil</i>.js', line: 4, column: 5 });
    assert.equal(opens[1]!.side, 'base', 'a function gone in B opens as A has it');
    assert.equal(opens[1]!.line, 24);
    assertClean(problems);
    await page.context().close();
  });

  it('two runs under load: per request first (req/s, latency, failed, GC and CPU per request), totals without a verdict', async () => {
    const { page, problems } = await open(loadModel);
    const load = loadModel.load!;
    assert.deepEqual(load.underLoad, { base: true, other: true });
    const sections = await page.$$eval('main > section', (els) => els.map((e) => e.id));
    assert.deepEqual(sections.slice(0, 2), ['load-section', 'metrics-section'], 'per request comes first');
    const cells = async (key: string) => page.$$eval(`#compare-load tr[data-key="${key}"] > *`, (els) => els.map((e) => (e.textContent ?? '').trim()));
    const rowOf = (key: string) => load.rows.find((r) => r.key === key)!;
    const fmtRps = (v: number) => `${Math.round(v).toLocaleString('en-US')} req/s`;

    const rps = await cells('load.rps');
    assert.deepEqual(rps.slice(0, 3), ['Requests per second', fmtRps(rowOf('load.rps').base!), fmtRps(rowOf('load.rps').other!)]);
    const change = rowOf('load.rps').change!;
    const decimals = Math.abs(change) >= 100 ? 0 : 1;
    const abs = Math.abs(change).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    assert.equal(rps[3], change === 0 ? '0 req/s' : `${change > 0 ? '+' : '−'}${abs} req/s`, 'the change B − A');
    for (const key of ['load.p50', 'load.p99', 'load.failed', 'load.gcMsPer1k', 'load.scavengesPer1k', 'load.gcShare', 'load.cpuMsPerRequest']) {
      const row = page.locator(`#compare-load tr[data-key="${key}"]`);
      assert.equal(await row.count(), 1, `${key} is drawn`);
      assert.equal(await row.getAttribute('data-verdict'), rowOf(key).verdict, `${key}: the model's verdict`);
    }
    assert.deepEqual((await cells('load.failed')).slice(1, 3), [String(rowOf('load.failed').base), String(rowOf('load.failed').other)]);
    assert.match((await cells('load.gcMsPer1k')).join(' '), /^GC pause per 1,000 requests [\d,.]+ ms [\d,.]+ ms/);
    const notes = await page.locator('#compare-load-notes').innerText();
    assert.match(notes, /Per request, in each run’s measured window/);
    assert.match(notes, /overstates/);

    // The whole-run totals keep their values and say why they have no verdict.
    const events = await page.$$eval('#compare-metrics tr[data-key="gcEvents"] > *', (els) => els.map((e) => (e.textContent ?? '').trim()));
    const gcEvents = loadModel.metrics.find((r) => r.key === 'gcEvents')!;
    assert.deepEqual([events[0], events[1], events[2], events[5]], ['GC events, total', gcEvents.base!.toLocaleString('en-US'), gcEvents.other!.toLocaleString('en-US'), 'total · judge per request']);
    assert.equal(await page.locator('#compare-metrics tr[data-key="gcPause"]').getAttribute('data-verdict'), 'info');
    assert.match(await page.locator('#metrics-section .hint').first().innerText(), /Totals of the whole run grow with the work done/);

    // Allocations: per request beside the GC, and the allocators whose bytes per request changed most.
    // Functions per request too (issue 21): the top lists and the flame graph in µs per request of each window.
    assert.equal(loadModel.normalization, 'request');
    assert.match(await page.locator('#compare-basis-text').innerText(), /^Self time per request: each whole profile’s self time over the requests of its measured window \(A: [\d,]+, B: [\d,]+\), in µs\./);
    const perRequest = page.locator('#changes-section table[data-normalization="request"]').first();
    assert.equal(await perRequest.count(), 1, 'the top changes are per request');
    const firstCells = await perRequest.locator('tbody tr').first().locator('td').allInnerTexts();
    assert.match(firstCells[1]!, /^[\d.,]+ (µs|ms)$/);
    assert.match(firstCells[3]!, /^[+−][\d.,]+ (µs|ms)$/);
    assert.equal(await page.locator('#flame-graph').getAttribute('data-normalization'), 'request');
    await page.locator('#compare-share').click();
    assert.equal(await page.locator('#changes-section table[data-normalization="share"]').count() > 0, true, 'share when asked');
    await page.locator('#compare-share').click();
    assert.equal(await page.locator('#changes-section table[data-normalization="request"]').count() > 0, true, 'and back to per request, not ms');
    assert.match(await page.locator('#compare-noise').innerText(), /^1 vs 1 run: no run-to-run noise estimate, so 'better' and 'worse' are the measured change/);

    const allocRow = page.locator('#compare-load tr[data-key="load.allocPerRequest"]');
    assert.equal(await allocRow.getAttribute('data-verdict'), rowOf('load.allocPerRequest').verdict);
    assert.match((await cells('load.allocPerRequest')).join(' '), /^Allocated per request [\d.]+ KB [\d.]+ KB/);
    const changes = loadModel.allocChanges!;
    assert.equal(changes.unit, 'bytes/request');
    const rows = page.locator('#alloc-changes tbody tr');
    assert.equal(await rows.count(), changes.functions.length);
    const first = await rows.first().locator('td').allInnerTexts();
    const top = changes.functions[0]!;
    assert.match(first[0]!, new RegExp(`^${top.name.replace(/[()]/g, '\\$&')}`));
    assert.match(first[3]!, top.change > 0 ? /^\+[\d.]+ (B|KB)$/ : /^−[\d.]+ (B|KB)$/);
    assertClean(problems);
    await page.context().close();
  });

  it('only one run under load: says so, compares nothing per request, judges no totals', async () => {
    const { page, problems } = await open(oneLoadModel);
    assert.match(await page.locator('#compare-load.is-empty').innerText(), /Nothing to compare per request/);
    // The window as the load generator measured it (1 s asked, 1.0–1.1 s measured): B's own figures.
    const note = /^Only B ran under load \(([\d,]+) req\/s in a ([\d.]+) s window\); A did not run under load\./.exec(await page.locator('#compare-load-notes').innerText());
    assert.ok(note, 'the one-sided load note');
    const figuresB = (JSON.parse(readFileSync(join(loadB16, 'summary.json'), 'utf8')) as { load: { figures: { rps: number; durationSeconds: number } } }).load.figures;
    assert.equal(note[1], Math.round(figuresB.rps).toLocaleString('en-US'));
    assert.ok(Math.abs(Number(note[2]) - figuresB.durationSeconds) <= 0.05, `${note[2]} s for ${figuresB.durationSeconds} s`);
    assert.equal(await page.locator('#compare-load tr').count(), 0);
    assert.equal(await page.locator('#compare-metrics tr[data-key="gcEvents"] td.verdict').innerText(), 'not comparable · only B ran under load');
    assert.match(await page.locator('#alloc-section').innerText(), /A did not sample allocations \(not collected\), so the allocators cannot be compared\./);
    // Neither run under load: no such section at all.
    const plain = await open(realModel);
    assert.equal(await plain.page.locator('#load-section').count(), 0);
    assertClean(problems);
    assertClean(plain.problems);
    await plain.page.context().close();
    await page.context().close();
  });

  it('a function that moved by a line is one row and one frame, marked moved, never new and gone', async () => {
    const { page, problems } = await open(movedModel);
    const rows = page.locator('#top-increases tbody tr');
    assert.equal(await rows.count(), 1);
    assert.equal(await rows.first().getAttribute('data-presence'), 'both');
    assert.equal(await rows.first().getAttribute('data-moved'), 'true');
    assert.match(await rows.first().innerText(), /work[\s\S]*server\.js:11:3[\s\S]*moved from line 10 to 11/);
    assert.equal(await page.locator('#top-decreases tbody tr').count(), 0, 'helper only moved: no change');
    assert.doesNotMatch(await page.locator('#changes-section').innerText(), /new in B|gone in B/);
    assert.match(await page.locator('#moved-note').innerText(), /^2 functions start elsewhere in B, .*: work \(10 → 11\), helper \(20 → 21\)\.$/);
    const drawn = await frames(page);
    assert.deepEqual(drawn.filter((f) => f.name === 'work' || f.name === 'helper').map((f) => [f.name, f.presence]).sort(), [['helper', 'both'], ['work', 'both']]);
    await page.locator('#flame-graph g[name="work"]').hover();
    const tip = page.locator('#flame-tooltip');
    await tip.waitFor({ state: 'visible' });
    assert.match(await tip.innerText(), /moved from line 10 to 11/);
    assert.match(await tip.innerText(), /self\s+100\.0 ms\s+140\.0 ms\s+\+40\.00 ms \(\+40\.0%\)/);
    assertClean(problems);
    await page.context().close();
  });

  it('draws in the standalone export shell too (themed, no host), and takes light and dark screenshots', async () => {
    // The report's self-contained page works for any bundle that answers `ready` with `{ type: 'model' }`.
    const assets = join(dir, 'assets');
    const standalone = join(dir, 'compare-standalone.html');
    writeFileSync(
      standalone,
      standaloneReportHtml(realModel as unknown as ReportModel, {
        script: readFileSync(join(assets, 'compare.js'), 'utf8'),
        styles: [readFileSync(join(assets, 'compare.css'), 'utf8')],
        theme: readFileSync(join(REPO, 'webview', 'common', 'standalone.css'), 'utf8'),
      }),
    );
    const out = process.env.COMPARE_SCREENSHOTS ?? join(dir, 'screenshots');
    mkdirSync(out, { recursive: true });
    const backgrounds: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, problems } = await openReport(browser, standalone, { colorScheme, width: 1400, height: 1000 });
      backgrounds.push(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
      assert.equal(await page.locator('#compare-swap').count(), 0, 'no host: no Swap button');
      assert.equal(await page.locator('.open-report').count(), 0, 'no host: no Open report buttons');
      assert.match(await page.locator('[data-run-label="other"]').innerText(), /^B: alloc-heavy\.js 16 MB/);
      await page.waitForTimeout(400);
      const full = join(out, `compare-${colorScheme}.png`);
      await page.screenshot({ path: full, fullPage: true });
      await page.locator('#flame-section').scrollIntoViewIfNeeded();
      await page.locator('#flame-graph g').nth(2).hover();
      await page.locator('#flame-tooltip').waitFor({ state: 'visible' });
      const flame = join(out, `compare-flame-${colorScheme}.png`);
      await page.screenshot({ path: flame });
      for (const shot of [full, flame]) assert.ok(statSync(shot).size > 20_000, `${shot} has content`);
      assert.deepEqual(problems.cspViolations, [], 'no CSP violations');
      assert.deepEqual([...problems.pageErrors, ...problems.consoleErrors, ...problems.dialogs], []);
      await page.context().close();
    }
    assert.notEqual(backgrounds[0], backgrounds[1], 'the dark scheme has its own palette');
  });
});
