/**
 * "A bigger young generation" on the report page, in headless Chromium: the prediction of a recorded
 * run (test/fixtures/predict/in-flight) as a table under the GC section with the recommendation, the
 * model's notes and "Confirm in the Semi-space Lab", which posts one message that names nothing; the
 * exported page has no such button (no editor to ask); a run without a prediction says why.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { readReportAssets, standaloneReportHtml } from '../../src/core/report/reportPage';
import { parseGcTraceText } from '../../src/core/gc/gcTraceCollector';
import { groupByIsolate, summarizeGc } from '../../src/core/gc/gcSummary';
import { predictYoungGeneration } from '../../src/core/predict/predictYoungGen';
import type { ReportModel } from '../../src/shared/model/reportModel';
import { emptySummary } from '../../src/shared/model/summary';
import type { YoungGenPrediction } from '../../src/shared/model/prediction';
import { parseFromReportWebview } from '../../src/shared/reportProtocol';
import { launchBrowser, openWebviewWithModel, writeWebviewPage, openReport, REPO, tempDir } from './browserHarness';

declare const window: any;

const FIXTURE = join(REPO, 'test', 'fixtures', 'predict', 'in-flight');

/** The recorded run's prediction, its pauses ten times as long (scavenges are then worth a bigger size). */
function recordedPrediction(): YoungGenPrediction {
  const run = JSON.parse(readFileSync(join(FIXTURE, 'run.json'), 'utf8'));
  const events = groupByIsolate(parseGcTraceText(readFileSync(join(FIXTURE, 'gc-trace.log'), 'utf8')).events).find((g) => g.pid === run.pid)!;
  const slow = events.events.map((e) => ({ ...e, pauseMs: e.pauseMs * 10 }));
  const { prediction } = predictYoungGeneration({
    isolates: [{ pid: run.pid, isolate: events.isolate, events: slow, startEpochMs: run.processStartMs, newSpaceMaxBytes: run.newSpaceMaxBytes, wallMs: null }],
    window: { startEpochMs: run.window.start, endEpochMs: run.window.end, requests: run.requests },
    askedMB: null,
    sampledBytesPerUnit: run.sampledBytesPerRequest,
    sitesTenured: 0,
    machineMemoryBytes: 24 * 1024 ** 3,
  });
  return prediction!;
}

function model(prediction: YoungGenPrediction | null, missing: string | null): ReportModel {
  const gc = summarizeGc([], { wallMs: 1000 });
  return {
    title: 'in-flight',
    source: '/runs/in-flight',
    summary: emptySummary({ kind: 'run', path: '/runs/in-flight' }, { gc, prediction, predictionMissing: missing }),
    session: null,
    flame: null,
    gcEvents: [],
  };
}

describe('report page: a bigger young generation', () => {
  let browser: Browser;
  const dir = tempDir('v8-lens-prediction-');
  const htmlFile = join(dir, 'panel.html');
  const prediction = recordedPrediction();

  before(async () => {
    browser = await launchBrowser();
    writeWebviewPage(htmlFile);
  });
  after(async () => browser?.close());

  const open = (m: ReportModel) => openWebviewWithModel(browser, htmlFile, m);

  it('a row per size with the current one first and the recommended one marked; Confirm posts one bare message', async () => {
    const { page, problems } = await open(model(prediction, null));
    const section = page.locator('#prediction-section');
    assert.equal(await section.locator('h2').innerText(), 'A bigger young generation');
    const rows = await page.locator('#prediction-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({ size: tr.getAttribute('data-size'), cls: tr.className, cells: [...(tr as any).cells].map((c: any) => c.textContent) })));
    assert.deepEqual(rows.map((r) => Number(r.size)), prediction.rows.map((r) => r.semiSpaceMB));
    assert.match(rows[0]!.cls, /current/);
    assert.match(rows[0]!.cells[0], /\(now\)$/);
    const recommended = prediction.recommendation.semiSpaceMB!;
    assert.ok(recommended > prediction.rows[0]!.semiSpaceMB, prediction.recommendation.text);
    assert.deepEqual(rows.filter((r) => /recommended/.test(r.cls)).map((r) => Number(r.size)), [recommended]);
    assert.equal((await page.locator('[data-note="recommendation"]').innerText()).trim(), prediction.recommendation.text);
    assert.equal(await page.locator('#prediction-panel [data-note="model"]').count(), prediction.notes.length);

    await page.locator('#prediction-confirm').click();
    const sent = await page.evaluate(() => window.__sent.filter((m: { type: string }) => m.type !== 'ready'));
    assert.deepEqual(sent, [{ type: 'confirmPrediction' }]);
    assert.deepEqual(parseFromReportWebview(sent[0]), { type: 'confirmPrediction' });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('a run without a prediction says why, never a table of zeros', async () => {
    const { page, problems } = await open(model(null, 'pid 41 had 3 scavenges in the measured window: too few to predict from (5 or more)'));
    assert.equal(await page.locator('#prediction-table').count(), 0);
    assert.match(await page.locator('#prediction-panel').innerText(), /Prediction:\s*not made \(pid 41 had 3 scavenges in the measured window: too few to predict from \(5 or more\)\)/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('the exported page shows the prediction without the button (no editor to ask)', async () => {
    const file = join(dir, 'export.html');
    writeFileSync(file, standaloneReportHtml(model(prediction, null), await readReportAssets(join(REPO, 'dist', 'webview'))));
    const { page, problems } = await openReport(browser, file);
    await page.waitForSelector('#prediction-table');
    assert.equal(await page.locator('#prediction-confirm').count(), 0);
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.cspViolations, []);
    await page.close();
  });
});
