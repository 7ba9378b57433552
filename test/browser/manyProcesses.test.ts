/**
 * A run folder with 20,000 processes (crafted from a real two-process run: a summary can claim
 * anything) exported as HTML and opened in Chromium: the page draws the 100 busiest, says how many
 * more there are and what they add up to, and stays small (5,000 made a 199 MB page before, 20,000
 * an "Invalid string length" crash).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Summary } from '../../src/shared/model/summary';
import { PROGRAMS, runCli as runCliIn, tempDir } from '../integration/cliHarness';
import { launchBrowser, openReport } from './browserHarness';

declare const document: { querySelectorAll(selector: string): ArrayLike<unknown> };

const COUNT = 20_000;

describe('20,000 processes in a summary, exported as one HTML page', { timeout: 120_000 }, () => {
  let browser: Browser;
  let dir: string;
  let html: string;
  let exportMs = 0;

  before(async () => {
    dir = tempDir('v8-lens-browser-many-');
    const real = join(dir, 'real');
    const r = await runCliIn(['profile', '--preset', 'cpu-gc', '--out', real, '--', join(PROGRAMS, 'fork-parent.js')]);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(readFileSync(join(real, 'summary.json'), 'utf8')) as Summary;
    const child = summary.processes!.find((p) => p.role !== 'main' && p.role !== 'primary') ?? summary.processes![0]!;
    const crafted = { ...summary, processes: [summary.processes![0]!] };
    for (let i = 0; i < COUNT; i++) {
      const p = structuredClone(child);
      Object.assign(p, { id: String(100_000 + i), pid: 100_000 + i });
      if (p.cpu) p.cpu.sampledMs = i; // the busiest are the last ones
      crafted.processes.push(p);
    }
    const many = join(dir, 'many');
    mkdirSync(many);
    writeFileSync(join(many, 'summary.json'), JSON.stringify(crafted));
    html = join(dir, 'many.html');
    const started = Date.now();
    const exported = await runCliIn(['report', many, '--html', html]);
    exportMs = Date.now() - started;
    assert.equal(exported.code, 0, exported.stderr);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is exported in seconds, as a page of a few MB at most', () => {
    assert.ok(exportMs < 20_000, `${exportMs} ms`);
    assert.ok(statSync(html).size < 5 * 1024 * 1024, `${statSync(html).size} bytes`);
  });

  it('draws the 100 busiest processes, and says how many more there are', async () => {
    const { page, problems } = await openReport(browser, html);
    // One row per process drawn, beside the whole run's ("all").
    const rows = await page.evaluate(() => document.querySelectorAll('#process-table tr[data-process-id]:not([data-process-id="all"])').length);
    assert.equal(rows, 100, `${rows} rows drawn`);
    const warnings = await page.locator('#run-warnings li').allInnerTexts();
    assert.ok(
      warnings.some((w) => new RegExp(`^this page draws the 100 busiest of ${(COUNT + 1).toLocaleString('en-US')} processes and threads; the other ${(COUNT + 1 - 100).toLocaleString('en-US')} \\(`).test(w)),
      warnings.slice(0, 3).join('\n'),
    );
    assert.ok(await page.locator(`#process-table tr[data-process-id="${100_000 + COUNT - 1}"]`).count() === 1, 'the busiest is drawn');
    assert.ok(warnings.length <= 52, `${warnings.length} warnings listed`);
    assert.deepEqual(problems, { cspViolations: [], consoleErrors: [], pageErrors: [], dialogs: [] });
  });
});
