/**
 * The report's charts can be read (issue 21): the tiers' warm-up chart ("optimizations per second"
 * was a 70×20 px sparkline with no req/s beside it) and the GC timeline's time axis (its ticks read
 * "0.1, 4, 6…"). The demo HTTP service profiled under load through the real CLI, its report
 * exported, and both read back in Chromium: the warm-up chart full width and tall enough to read,
 * each second's optimizations the summary's and each second's req/s the load generator's, on the
 * same seconds; the GC axis at one round step.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { ReportModel } from '../../src/shared/model/reportModel';
import { launchBrowser, openReport, REPO, runCli, tempDir, type PageProblems } from './browserHarness';

declare const document: any;

function assertClean(problems: PageProblems): void {
  assert.deepEqual(problems.cspViolations, [], 'no CSP violations');
  assert.deepEqual(problems.pageErrors, [], 'no uncaught errors');
  assert.deepEqual(problems.consoleErrors, [], 'no console errors');
}

describe('readable charts in Chromium: the warm-up and the GC timeline', { timeout: 180_000 }, () => {
  let browser: Browser;
  let dir: string;
  let html: string;

  before(async () => {
    dir = tempDir();
    const run = join(dir, 'run');
    const r = await runCli(['profile', '--url', 'auto', '--warmup', '1', '--duration', '3', '--connections', '4', '--out', run, '--', join(REPO, 'examples', 'http-service', 'server.js')], 120_000);
    assert.equal(r.code, 0, r.stderr);
    html = join(dir, 'run.html');
    const e = await runCli(['report', run, '--html', html]);
    assert.equal(e.code, 0, e.stderr);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('optimizations and req/s per second on one readable chart with titled axes', async () => {
    const { page, problems } = await openReport(browser, html, { width: 1400, height: 900 });
    const model = await page.evaluate(() => JSON.parse(document.getElementById('report-model')!.textContent!) as ReportModel);
    const perSecond = model.summary.tierHistory?.optimizationsPerSecond ?? [];
    assert.ok(perSecond.some((n) => n > 0), 'the run dated its optimizations');
    const rps: (number | undefined)[] = [];
    for (const [at, n] of model.loadWindow?.rps ?? []) if (at >= 0) rps[Math.floor(at / 1000)] = n;
    assert.ok(rps.filter((n) => n !== undefined).length >= 3, 'the load generator ticked every second');

    const chart = page.locator('#warmup');
    await chart.scrollIntoViewIfNeeded();
    const box = (await chart.locator('canvas').boundingBox())!;
    assert.ok(box.width >= 600 && box.height >= 150, `readable: ${Math.round(box.width)}×${Math.round(box.height)} px`);
    assert.equal(Number(await chart.getAttribute('data-optimizations')), perSecond.reduce((a, b) => a + b, 0));

    // Every second's figures, as the table beside the chart gives them.
    const rows = await page.$$eval('#warmup-table tbody tr', (trs: any[]) => trs.map((tr) => [...tr.children].map((c: any) => c.textContent)));
    assert.equal(rows.length, Math.max(perSecond.length, rps.length));
    rows.forEach(([second, opt, req], s) => {
      assert.equal(second, `${s}–${s + 1} s`);
      assert.equal(Number(opt), perSecond[s] ?? 0, `optimizations in second ${s}`);
      assert.equal(req, rps[s] === undefined ? 'no load' : rps[s]!.toLocaleString('en-US'), `req/s in second ${s}`);
    });
    assert.equal(Number(await chart.getAttribute('data-rps-seconds')), rps.filter((n) => n !== undefined).length);

    // The chart itself, drawn by chart.js on the canvas.
    const painted = await page.evaluate(() => {
      const canvas = document.querySelector('#warmup canvas');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let inked = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
      return inked / (data.length / 4);
    });
    assert.ok(painted > 0.01, `the canvas is painted (${(painted * 100).toFixed(1)}% of its pixels)`);
    if (process.env.WARMUP_SCREENSHOT) await chart.screenshot({ path: process.env.WARMUP_SCREENSHOT });
    assert.match(await chart.locator('.warmup-label').innerText(), /^Warm-up: [\d,]+ optimizations, 90% of them by \d+ s; req\/s under load in the same seconds$/);
    assertClean(problems);
    await page.context().close();
  });

  it('the GC timeline\'s time axis: round ticks at one step, none at the axis\'s own start', async () => {
    // Issue 21: the axis starts where the CPU profile does, and that start got a tick: "0.1, 4, 6…".
    const { page, problems } = await openReport(browser, html, { width: 1400, height: 900 });
    const timeline = page.locator('#gc-timeline');
    await timeline.scrollIntoViewIfNeeded();
    const ticks = (await timeline.getAttribute('data-x-ticks'))!.split('|').map(Number);
    assert.ok(ticks.length >= 3, `ticks: ${ticks.join(', ')}`);
    const step = ticks[1]! - ticks[0]!;
    const magnitude = 10 ** Math.floor(Math.log10(step));
    assert.ok([1, 2, 2.5, 5, 10].some((m) => Math.abs(step / magnitude - m) < 1e-9), `a round step: ${step}`);
    ticks.forEach((t, i) => {
      assert.ok(Math.abs(t / step - Math.round(t / step)) < 1e-6, `tick ${t} is a multiple of ${step}: ${ticks.join(', ')}`);
      if (i > 0) assert.ok(Math.abs(t - ticks[i - 1]! - step) < 1e-9, `one step between ticks: ${ticks.join(', ')}`);
    });
    assertClean(problems);
    await page.context().close();
  });
});
