/**
 * The report webview in a real headless Chromium: the standalone exports the CLI writes
 * (`v8-lens report … --html`) of a real run, of a third-party profile and of a hostile one, and the
 * VS Code panel page with a stand-in for the webview API. Every page must draw without a single
 * CSP violation, console error or dialog.
 *
 * UPDATE_SCREENSHOTS=1 writes the screenshots to docs/screenshots/ (otherwise to a temp folder).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildReportModel, modelForPage, type ReportModel } from '../../src/core/report/reportModel';
import { readReportAssets, standaloneReportHtml, webviewPageHtml } from '../../src/core/report/reportPage';
import { packTimeProfile } from '../../src/core/report/packTimeProfile';
import { parseFromReportWebview } from '../../src/shared/reportProtocol';
import { fakeVsCodeApiScript, flameFrame, flameFrames, launchBrowser, openReport, pointAtFrame, profileServerUnderLoad, REPO, runCli, SPEEDSCOPE, tempDir, type PageProblems, writeXssProfile } from './browserHarness';

// Browser globals used inside page.evaluate / addInitScript callbacks, which run in the page. This
// file is type-checked with the Node libs only, so they are declared here (no code is emitted).
declare const document: any;
declare const window: any;
declare function getComputedStyle(element: unknown): { backgroundColor: string };
interface CspEvent { violatedDirective: string; blockedURI: string; sourceFile: string; lineNumber: number }

const WEBVIEW_DIR = join(REPO, 'dist', 'webview');
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO, 'docs', 'screenshots') : null;

function assertClean(problems: PageProblems): void {
  assert.deepEqual(problems.cspViolations, [], 'no CSP violations');
  assert.deepEqual(problems.pageErrors, [], 'no uncaught errors');
  assert.deepEqual(problems.consoleErrors, [], 'no console errors');
  assert.deepEqual(problems.dialogs, [], 'no dialogs');
}

async function exportHtml(source: string, out: string): Promise<string> {
  const result = await runCli(['report', source, '--html', out]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /report written to/);
  return out;
}

async function frameFills(page: Page): Promise<{ highlighted: string[]; other: string[]; wrongMatches: string[] }> {
  const highlighted = new Set<string>();
  const other = new Set<string>();
  const wrongMatches: string[] = [];
  for (const f of await flameFrames(page)) {
    if (f.highlight) {
      highlighted.add(f.fill);
      if (!`${f.name}\n${f.url}`.toLowerCase().includes('emit')) wrongMatches.push(f.name);
    } else other.add(f.fill);
  }
  return { highlighted: [...highlighted], other: [...other], wrongMatches };
}

async function search(page: Page, text: string): Promise<void> {
  await page.locator('#flame-search').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Backspace');
  if (text) await page.keyboard.type(text);
  await page.waitForTimeout(400); // the search is debounced
}

describe('report webview in Chromium', { timeout: 180_000 }, () => {
  let browser: Browser;
  let dir: string;
  let runDir: string;
  let runHtml: string;
  let sucraseHtml: string;
  let xssHtml: string;

  before(async () => {
    assert.ok(existsSync(join(WEBVIEW_DIR, 'report.js')), 'dist/webview/report.js is built (npm run build)');
    dir = tempDir();
    runDir = join(dir, 'run');
    await profileServerUnderLoad(runDir, 3);
    writeXssProfile(join(dir, 'xss.cpuprofile'));
    [runHtml, sucraseHtml, xssHtml] = await Promise.all([
      exportHtml(runDir, join(dir, 'run.html')),
      exportHtml(join(SPEEDSCOPE, 'chrome65-sucrase.cpuprofile'), join(dir, 'sucrase.html')),
      exportHtml(join(dir, 'xss.cpuprofile'), join(dir, 'xss.html')),
    ]);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (dir && process.env.KEEP_BROWSER_TEST_FILES !== '1') rmSync(dir, { recursive: true, force: true });
  });

  it('draws a real run: header, flame graph, GC points and cards, tables, and no host buttons', async () => {
    const { page, problems } = await openReport(browser, runHtml);
    const model = await page.evaluate(() => JSON.parse(document.getElementById('report-model')!.textContent!) as ReportModel);
    assert.ok(model.gcEvents.length > 0, 'the run traced GC');

    const meta = await page.locator('#run-meta').innerText();
    assert.ok(meta.includes(model.session!.node.version), meta);
    assert.match(meta, /http-server\.js/);
    assert.equal(await page.locator('#export-html').count(), 0, 'no Export button without a host');
    assert.equal(await page.locator('#reveal-folder').count(), 0, 'no Reveal button without a host');

    assert.ok(Number(await page.locator('#flame-graph').getAttribute('data-frame-count')) > 10);
    // The CPU-over-time strip: from the samples the file holds after its script, as many as the model says.
    assert.ok(Number(await page.locator('#flame-chart').getAttribute('data-box-count')) > 0);
    assert.ok(model.timeProfile?.packed?.spansIn && model.timeProfile.packed.spansIn.count > 0 && model.timeProfile.packed.spans === '');
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-report-ready') && document.readyState !== 'loading'), true);
    assert.equal(Number(await page.locator('#gc-timeline').getAttribute('data-event-count')), model.gcEvents.length);
    assert.equal(await page.locator('#gc-timeline canvas').count(), 1);
    const cards = await page.locator('#gc-cards').innerText();
    assert.match(cards, /GC share of wall time/);
    assert.match(cards, /Scavenge/);
    assert.match(cards, /MB reached|not measured/);
    assert.match(cards, /V8 default/);

    assert.ok((await page.locator('#hot-functions tbody tr').count()) > 5);
    // Sorting by a header flips the order.
    const firstSelf = await page.locator('#hot-functions tbody tr').first().locator('td').first().innerText();
    await page.locator('#hot-functions th[data-key="self"] button').click();
    assert.equal(await page.locator('#hot-functions th[data-key="self"]').getAttribute('aria-sort'), 'ascending');
    assert.notEqual(await page.locator('#hot-functions tbody tr').first().locator('td').first().innerText(), firstSelf);
    assertClean(problems);
    await page.context().close();
  });

  it('shows name, location and times in the tooltip, zooms on click, and resets', async () => {
    const { page, problems } = await openReport(browser, runHtml);
    await pointAtFrame(page, 'handle');
    const tip = page.locator('#flame-tooltip');
    await tip.waitFor({ state: 'visible' });
    const text = await tip.innerText();
    assert.match(text, /^handle$/m);
    assert.match(text, /http-server\.js:8:\d+/);
    assert.match(text, /self\s+[\d.,]+ ms · [\d.]+% of the profile/);
    assert.match(text, /total\s+[\d.,]+ ms · [\d.]+% of the profile/);

    const before = Number(await page.locator('#flame-graph').getAttribute('data-frame-count'));
    await pointAtFrame(page, 'handle', {});
    await page.waitForTimeout(400);
    assert.match(await page.locator('#flame-zoomed').innerText(), /Zoomed into handle/);
    const zoomed = Number(await page.locator('#flame-graph').getAttribute('data-frame-count'));
    assert.notEqual(zoomed, before);
    await page.locator('#flame-reset').click();
    await page.waitForTimeout(400);
    assert.equal(Number(await page.locator('#flame-graph').getAttribute('data-frame-count')), before);

    // A server's profile is mostly (idle): hidden by default, one click shows it.
    const idleFrames = async () => (await flameFrames(page)).filter((f) => f.name === '(idle)').length;
    assert.equal(await idleFrames(), 0);
    await page.locator('#flame-show-idle').click();
    await page.waitForTimeout(400);
    assert.equal(await idleFrames(), 1);

    // The width follows the panel.
    const canvasWidth = () => page.$eval('#flame-graph canvas', (canvas: { clientWidth: number }) => canvas.clientWidth);
    const wide = await canvasWidth();
    await page.setViewportSize({ width: 900, height: 900 });
    await page.waitForFunction((w: number) => document.querySelector('#flame-graph canvas').clientWidth < w, wide);
    assert.ok((await canvasWidth()) < wide - 300);

    // Switching to the dark scheme recolours the frames.
    const light = (await flameFrame(page, 'handle')).fill;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction((f: string) => document.getElementById('flame-graph').flameFrames().find((x: { name: string }) => x.name === 'handle')?.fill !== f, light);
    assertClean(problems);
    await page.context().close();
  });

  it('searches as plain text: "foo(" and ".*" are harmless, a real name is highlighted', async () => {
    const { page, problems } = await openReport(browser, runHtml);
    await search(page, 'foo(');
    assert.equal(await page.locator('#flame-search-info').innerText(), 'no frame matches');
    await search(page, '.*');
    assert.equal(await page.locator('#flame-search-info').innerText(), 'no frame matches');
    await search(page, 'EMIT');
    const matches = Number(await page.locator('#flame-graph').getAttribute('data-search-matches'));
    assert.ok(matches > 0, 'emit is found, case-insensitively');
    assert.match(await page.locator('#flame-search-info').innerText(), /frames? match · [\d.,]+ ms = [\d.]+% of the profile/);
    const fills = await frameFills(page);
    assert.deepEqual(fills.wrongMatches, []);
    assert.ok(fills.highlighted.length > 0);
    assert.deepEqual(fills.highlighted.filter((f) => fills.other.includes(f)), [], 'matches are coloured apart from the rest');
    await search(page, '');
    assert.equal(await page.locator('#flame-graph').getAttribute('data-search-matches'), null);
    assertClean(problems);
    await page.context().close();
  });

  it('takes light and dark screenshots of the flame graph and the GC timeline', async () => {
    const out = SCREENSHOTS ?? join(dir, 'screenshots');
    mkdirSync(out, { recursive: true });
    const backgrounds: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, problems } = await openReport(browser, runHtml, { colorScheme, width: 1400, height: 900 });
      backgrounds.push(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
      await page.waitForTimeout(300);
      await pointAtFrame(page, 'handle');
      await page.locator('#flame-tooltip').waitFor({ state: 'visible' });
      const flameShot = join(out, `report-flame-${colorScheme}.png`);
      await page.screenshot({ path: flameShot });
      await page.mouse.move(0, 0);
      await page.locator('#flame-tooltip').waitFor({ state: 'hidden' });
      const gcShot = join(out, `report-gc-${colorScheme}.png`);
      await page.locator('#gc-section').screenshot({ path: gcShot });
      for (const shot of [flameShot, gcShot]) assert.ok(statSync(shot).size > 20_000, `${shot} has content`);
      assertClean(problems);
      await page.context().close();
    }
    assert.notEqual(backgrounds[0], backgrounds[1], 'the dark scheme has its own palette');
  });

  it('draws a third-party profile: many frames, one line for the missing GC and deopts', async () => {
    const { page, problems } = await openReport(browser, sucraseHtml);
    assert.ok(Number(await page.locator('#flame-graph').getAttribute('data-frame-count')) > 50);
    assert.equal(await page.locator('#gc-timeline').getAttribute('data-event-count'), '0');
    assert.match(await page.locator('#gc-timeline').innerText(), /No GC events: a \.cpuprofile has no GC trace/);
    assert.equal(await page.locator('#gc-timeline canvas').count(), 0);
    assert.match(await page.locator('#deopt-table').innerText(), /No deopt data/);
    await pointAtFrame(page, 'parseStatement');
    assert.match(await page.locator('#flame-tooltip').innerText(), /parseStatement[^]*self\s+[\d.,]+ ms/);
    assertClean(problems);
    await page.context().close();
  });

  it('a big profile paints a coarser first tree, then draws the whole one: the same frames as a page without it', async () => {
    // The sucrase profile's tree is small: packed here as a big one is (a first tree from 0 frames).
    const model = await buildReportModel(join(SPEEDSCOPE, 'chrome65-sucrase.cpuprofile'), { forPage: true });
    const assets = await readReportAssets(WEBVIEW_DIR);
    const withFirst = join(dir, 'first-tree.html');
    writeFileSync(withFirst, standaloneReportHtml({ ...model, timeProfile: packTimeProfile(model.timeProfile!, 0) }, assets));
    const drawn = async (file: string) => {
      const { page, problems } = await openReport(browser, file);
      const frames = (await flameFrames(page)).map((f) => `${f.name} ${f.x} ${f.width} ${f.depth}`).sort();
      const measures = await page.evaluate(() => performance.getEntriesByType('measure').map((m) => m.name));
      assertClean(problems);
      await page.context().close();
      return { frames, measures };
    };
    const first = await drawn(withFirst);
    const whole = await drawn(sucraseHtml);
    assert.ok(first.measures.includes('v8-lens:flame-whole') && !whole.measures.includes('v8-lens:flame-whole'), `${first.measures} / ${whole.measures}`);
    assert.ok(first.frames.length > 50);
    assert.deepEqual(first.frames, whole.frames);
  });

  it('shows hostile function names as text and runs none of them', async () => {
    const { page, problems } = await openReport(browser, xssHtml);
    // The names are drawn as text on the canvas (a label cut to its frame ends with an ellipsis).
    const frames = await flameFrames(page);
    for (const name of ['<img src=x onerror=alert(1)>', '</script><script>alert(2)</script>']) {
      const drawn = frames.find((f) => f.name === name);
      assert.ok(drawn, `${name} is drawn: ${frames.map((f) => f.name).join(' | ')}`);
      assert.ok(drawn.label === name || (drawn.label.endsWith('…') && name.startsWith(drawn.label.slice(0, -1))), `its label: ${drawn.label}`);
    }
    const table = await page.locator('#hot-functions').innerText();
    assert.ok(table.includes('<img src=x onerror=alert(1)>'));
    assert.ok(table.includes('</script><script>alert(2)</script>'));
    assert.equal(await page.locator('img').count(), 0, 'no element was made from the names');
    assert.equal(await page.locator('script:not([type="application/octet-stream"])').count(), 3, 'only the page’s own scripts');
    assert.deepEqual(await page.locator('script[type="application/octet-stream"]').evaluateAll((els) => els.map((e) => e.id)), ['report-spans-0'], 'and its samples in time order, as data');
    await pointAtFrame(page, '<img src=x onerror=alert(1)>');
    assert.match(await page.locator('#flame-tooltip').innerText(), /<img src=x onerror=alert\(1\)>/);
    await search(page, '<script>');
    assert.equal(await page.locator('#flame-graph').getAttribute('data-search-matches'), '1');
    assertClean(problems);
    await page.context().close();
  });

  it('in the VS Code panel page, posts openSource, exportHtml and revealRunFolder through the protocol', async () => {
    const model = await buildReportModel(runDir);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const cspViolations: string[] = [];
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.exposeBinding('__reportCsp', (_s, text: string) => void cspViolations.push(text));
    await page.addInitScript(fakeVsCodeApiScript('__reportCsp'));
    const htmlFile = join(dir, 'panel.html');
    writeFileSync(
      htmlFile,
      webviewPageHtml({
        cspSource: 'file:',
        nonce: 'bm9uY2Vub25jZW5vbmNlbm9uY2U=',
        scriptUri: pathToFileURL(join(WEBVIEW_DIR, 'report.js')).href,
        styleUris: [pathToFileURL(join(WEBVIEW_DIR, 'report.css')).href],
      }),
    );
    await page.goto(pathToFileURL(htmlFile).href);
    await page.waitForFunction(() => (window as unknown as { __sent: { type: string }[] }).__sent.some((m) => m.type === 'ready'));
    // As the panel posts it (reportPanel.ts): the model for a page, its time profile packed.
    await page.evaluate((m) => window.postMessage({ type: 'model', model: m }, '*'), JSON.parse(JSON.stringify(modelForPage(model))) as ReportModel);
    await page.waitForSelector('html[data-report-ready="true"]');

    await page.locator('#export-html').click();
    await page.locator('#reveal-folder').click();
    await pointAtFrame(page, 'handle', { modifiers: ['Control'] });
    assert.equal(await page.locator('#flame-zoomed').innerText(), '', 'Ctrl-click opens, it does not zoom');
    await page.locator('#hot-functions tbody tr.clickable').first().click();

    const sent = await page.evaluate(() => (window as unknown as { __sent: unknown[] }).__sent);
    const parsed = sent.map((m) => parseFromReportWebview(m));
    assert.ok(parsed.every((m) => m !== null), `every message passes the host's check: ${JSON.stringify(sent)}`);
    assert.deepEqual(parsed.slice(0, 3).map((m) => m!.type), ['ready', 'exportHtml', 'revealRunFolder']);
    const open = parsed.filter((m) => m!.type === 'openSource') as { url: string; line: number; column: number }[];
    assert.equal(open.length, 2);
    assert.match(open[0]!.url, /http-server\.js$/);
    assert.equal(open[0]!.line, 8);
    assert.ok(open[0]!.column >= 1);
    const hottest = model.summary.cpu!.functions.find((f) => f.url !== '' && f.line >= 1);
    assert.equal(open[1]!.url, hottest!.url);
    assert.equal(open[1]!.line, hottest!.line);

    assert.deepEqual(cspViolations, []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('embeds the same model the CLI builds', async () => {
    const html = readFileSync(runHtml, 'utf8');
    const json = /<script type="application\/json" id="report-model">([^]*?)<\/script>/.exec(html)![1]!;
    const embedded = JSON.parse(json) as ReportModel;
    const fresh = await buildReportModel(runDir);
    assert.equal(embedded.title, fresh.title);
    assert.equal(embedded.gcEvents.length, fresh.gcEvents.length);
    assert.equal(embedded.summary.cpu?.sampleCount, fresh.summary.cpu?.sampleCount);
  });
});
