/**
 * The report of a run whose V8 output V8 Lens could not all read (the run's self-check), in Chromium:
 * the header says so first, with V8's count and what was read, and the deopt section never says
 * "No deopts recorded" when V8 traced deopts that could not be read.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Summary } from '../../src/shared/model/summary';
import { PROGRAMS, runCli as runCliIn, tempDir } from '../integration/cliHarness';
import { launchBrowser, openReport } from './browserHarness';

// The page's own global inside page.evaluate: this file is type-checked with the Node libs only.
declare const document: { querySelectorAll(selector: string): ArrayLike<{ id: string }> };

describe('the report of a run with V8 output it could not read', { timeout: 120_000 }, () => {
  let browser: Browser;
  let dir: string;
  let summary: Summary;

  before(async () => {
    dir = tempDir('v8-lens-browser-selfcheck-');
    const run = join(dir, 'run');
    const r = await runCliIn(['profile', '--stable-deopts', '--out', run, '--', join(PROGRAMS, 'unreadable-v8-lines.js')]);
    assert.equal(r.code, 0, r.stderr);
    summary = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8')) as Summary;
    // A second folder where no bailout can be read at all (a Node whose trace format changed).
    const spoiled = join(dir, 'spoiled');
    cpSync(run, spoiled, { recursive: true });
    rmSync(join(spoiled, 'summary.json'));
    for (const f of readdirSync(join(spoiled, 'v8')).filter((x) => x.endsWith('.asm'))) {
      const path = join(spoiled, 'v8', f);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/\): begin\. deoptimizing /g, '): start deoptimizing '));
    }
    for (const [from, to] of [[run, 'run.html'], [spoiled, 'spoiled.html']] as const) {
      const html = await runCliIn(['report', from, '--html', join(dir, to)]);
      assert.equal(html.code, 0, html.stderr);
    }
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says in the header, before anything else, what V8 wrote and what was read', async () => {
    const { page, problems } = await openReport(browser, join(dir, 'run.html'));
    const box = page.locator('#self-check');
    assert.equal(await box.getAttribute('role'), 'alert');
    const gc = summary.selfCheck!.gcLines!;
    const deopts = summary.selfCheck!.deopts!;
    assert.ok(gc.seen === gc.read + 1 && deopts.seen === deopts.read + 1, JSON.stringify(summary.selfCheck));
    assert.deepEqual(await box.locator('li').allInnerTexts(), [
      `V8 printed ${gc.seen} GC events, V8 Lens read ${gc.read}: this Node’s trace format is not fully understood`,
      `V8 traced ${deopts.seen} deopts, V8 Lens read ${deopts.read}: this Node’s trace format is not fully understood`,
    ]);
    // Above the run's metadata and its other warnings.
    const order = await page.evaluate(() => Array.from(document.querySelectorAll('#self-check, #run-meta, #run-warnings')).map((e: { id: string }) => e.id));
    assert.equal(order[0], 'self-check', order.join(', '));
    assert.deepEqual([...problems.cspViolations, ...problems.pageErrors, ...problems.consoleErrors, ...problems.dialogs], []);
    await page.context().close();
  });

  it('deopts V8 traced that none could be read: the deopt section says so, never "No deopts recorded"', async () => {
    const { page, problems } = await openReport(browser, join(dir, 'spoiled.html'));
    const deopts = await page.locator('#deopt-table').innerText();
    assert.doesNotMatch(deopts, /No deopts recorded/);
    assert.match(deopts, /No deopt data:.*V8 traced \d+ deopts, V8 Lens read 0: this Node’s trace format is not fully understood/s);
    assert.match(await page.locator('#self-check').innerText(), /V8 traced \d+ deopts, V8 Lens read 0/);
    assert.deepEqual([...problems.cspViolations, ...problems.pageErrors, ...problems.consoleErrors, ...problems.dialogs], []);
    await page.context().close();
  });
});
