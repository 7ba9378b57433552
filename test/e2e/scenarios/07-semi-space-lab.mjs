// Scenario: the Semi-space Lab in the sidebar sweeps the example allocation-heavy service (a short
// sweep: 2 sizes × 3 rounds of 2 s, then one profiling run per size), shows scavenges per 1k requests falling as the size grows and
// a recommendation with its reason, and the screenshot goes to the README.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchConfigOnFreePort } from '../lib/v8lens.mjs';

const CONFIG = 'Alloc service (semi-space lab)';

export default {
  name: 'Semi-space Lab: a short sweep of the alloc service from the sidebar; scavenges/1k fall with size; a recommendation',
  timeout: 300_000,
  viewport: { width: 1600, height: 1100 },
  async run(t) {
    const { page } = t;
    // The service listens on PORT: give it a free one in the workspace's launch configuration.
    const port = await launchConfigOnFreePort(t, CONFIG);
    const launchFile = join(t.workspace, '.vscode', 'launch.json');

    await t.host.eval(async (vscode) => {
      await vscode.commands.executeCommand('v8Lens.semiSpaceLab.focus');
    });
    const lab = await t.webviewFrame(page, '#lab-form #lab-target', { timeout: 60_000 });
    t.log('lab view open');
    const targetOptions = await lab.locator('#lab-target option').allTextContents();
    t.log(`targets: ${targetOptions.join(' | ')}`);
    await lab.locator('#lab-target').selectOption({ label: `Launch config: ${CONFIG}` });
    const url = `http://127.0.0.1:${port}/`;
    const fill = async (id, value) => {
      const box = lab.locator(`#${id}`);
      await box.fill(String(value));
      await box.dispatchEvent('change');
    };
    await fill('lab-url', url);
    await fill('lab-readyValue', url);
    await fill('lab-connections', 10);
    await fill('lab-warmupSeconds', 1);
    await fill('lab-durationSeconds', 2);
    await fill('lab-values', '2, 16');
    await fill('lab-rounds', 3);
    t.log(`estimate: ${await lab.locator('#lab-estimate').textContent()}`);
    await lab.locator('#lab-run').click();

    // Progress per run, then the final results.
    // 2 sizes × 3 measured rounds, then one profiling run per size.
    await lab.locator('#lab-progress', { hasText: /Run \d\/8/ }).waitFor({ timeout: 60_000 });
    t.log(`progress: ${await lab.locator('#lab-progress').textContent()}`);
    await lab.locator('#lab-results h2', { hasText: /Results · finished/ }).waitFor({ timeout: 180_000 });
    const rows = await lab.locator('#lab-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    t.log(`table: ${JSON.stringify(rows)}`);
    assert.equal(rows.length, 2);
    // The sidebar's columns: MB (effective), valid runs, req/s, scavenges/1k, GC ms/1k (the panel has them all).
    const heads = await lab.locator('#lab-table thead th').allInnerTexts();
    assert.deepEqual(heads.map((h) => h.replace(/\s+/g, ' ')), ['MB (effective)', 'valid runs', 'req/s', 'scavenges / 1k req', 'GC ms / 1k req']);
    const scav = rows.map((r) => Number(r[3].replace(/,/g, '')));
    assert.ok(rows.every((r) => r[1] === '3/3'), `every run valid: ${JSON.stringify(rows.map((r) => r[1]))}`);
    assert.ok(scav[1] < scav[0], `scavenges per 1k requests fall from 2 MB (${scav[0]}) to 16 MB (${scav[1]})`);
    const recommendation = (await lab.locator('#lab-recommendation').textContent()).trim();
    t.log(`recommendation: ${recommendation}`);
    assert.match(recommendation, /^(Recommended: \d+ MB\.|Keep the baseline, 2 MB\.) \S/, 'a recommendation with its reason');

    // The results in a wide panel beside the lab, for the README's screenshot.
    await lab.locator('button', { hasText: 'Open results' }).click();
    const panel = await t.webviewFrame(page, 'html[data-mode="results"] #lab-table', { timeout: 30_000 });
    await panel.locator('#lab-recommendation').waitFor({ timeout: 15_000 });
    // The sweep that just finished, not an interim read of its sweep.json ("cancelled" until it ends).
    assert.equal(await panel.locator('#lab-results h2').first().innerText(), 'Results · finished');
    assert.match(recommendation, /Or cut allocation: \S+ makes \d+% of the [\d.,]+ KB allocated per request\./, 'the code-side alternative');
    const head = await panel.locator('#lab-table thead').innerText();
    assert.match(head, /allocated \/ req/);
    await page.locator('.pane-header', { hasText: 'Sessions' }).first().click(); // collapse: more room for the lab
    await lab.evaluate(() => document.getElementById('lab-results').scrollIntoView({ block: 'start' }));
    await t.host.eval(async (vscode) => {
      await vscode.commands.executeCommand('workbench.action.closePanel');
    });
    await t.sleep(800);
    await t.screenshot(page, join(t.screenshotsDir, 'semi-space-lab.png'));

    // Apply: the diff of launch.json opens first, then the lab asks; the flag lands in runtimeArgs.
    const recommended = /^Recommended: (\d+) MB/.exec(recommendation)?.[1];
    if (recommended) {
      await lab.locator('#lab-apply').click();
      await page.locator('.tabs-container .tab', { hasText: `--max-semi-space-size=${recommended}` }).first().waitFor({ timeout: 20_000 });
      await lab.locator('#lab-apply-write').click();
      t.log(`lab: ${await lab.locator('#lab-applied').textContent()}`);
      const applied = await t.waitFor(() => {
        const c = JSON.parse(readFileSync(launchFile, 'utf8')).configurations.find((x) => x.name === CONFIG);
        return (c.runtimeArgs ?? []).includes(`--max-semi-space-size=${recommended}`) ? c.runtimeArgs : null;
      }, { timeout: 20_000, what: 'launch.json to carry the recommended size' });
      t.log(`Apply wrote runtimeArgs ${JSON.stringify(applied)}`);
    }

    // Each lab run is a run: the Sessions view lists the sweep with its runs, and two of them
    // (2 MB and 16 MB) compare from there (select both, Compare Runs… on the context menu): the
    // profiling runs, which have the CPU profiles (the measured rounds ran with the GC trace alone).
    await t.host.eval((vscode) => vscode.commands.executeCommand('v8Lens.sessions.refresh'));
    const sessionsHeader = page.locator('.pane-header', { hasText: 'Sessions' }).first();
    if ((await sessionsHeader.getAttribute('aria-expanded')) !== 'true') await sessionsHeader.click();
    const sweepRow = page.locator('.part.sidebar .monaco-list-row', { hasText: /^Lab: / }).first();
    await sweepRow.waitFor({ timeout: 15_000 });
    t.log(`Sessions: ${await sweepRow.textContent()}`);
    if ((await sweepRow.getAttribute('aria-expanded')) !== 'true') await sweepRow.click();
    const small = page.locator('.part.sidebar .monaco-list-row', { hasText: /max-semi-space-size=2 MB · profiling run/ }).first();
    const big = page.locator('.part.sidebar .monaco-list-row', { hasText: /max-semi-space-size=16 MB · profiling run/ }).first();
    await small.waitFor({ timeout: 15_000 });
    t.log(`lab run in Sessions: ${await small.textContent()}`);
    // A click on a run opens its report, and the report's webview takes the focus when it is
    // ready, which closes any context menu opened before: wait for it, then select and open the menu.
    await small.click();
    await page.locator('.tabs-container .tab.active', { hasText: /max-semi-space-size=2 MB · profiling run/ }).waitFor({ timeout: 30_000 });
    const smallReport = await t.webviewFrame(page, 'html[data-report-ready]', { timeout: 60_000 });
    assert.ok(smallReport, 'the 2 MB run\'s report');
    await t.sleep(1000);
    await big.click({ modifiers: ['Control'] });
    const item = page.locator('.monaco-menu .action-label', { hasText: 'Compare Runs…' }).first();
    for (let attempt = 1; ; attempt++) {
      await big.click({ button: 'right' });
      if (await item.waitFor({ timeout: 3_000 }).then(() => true, () => false)) break;
      assert.ok(attempt < 3, 'the Sessions context menu with Compare Runs…');
      t.log('the context menu closed before it could be used; opening it again');
    }
    const selectedRows = await page.locator('.part.sidebar .monaco-list-row.selected').allTextContents();
    t.log(`selected in Sessions: ${selectedRows.length} rows`);
    assert.equal(selectedRows.length, 2, `the 2 MB and 16 MB runs selected: ${JSON.stringify(selectedRows)}`);
    await item.hover();
    await t.sleep(300);
    await item.click();
    const compare = await t.webviewFrame(page, '#compare-header', { timeout: 60_000 });
    await compare.locator('html[data-report-ready]').waitFor({ timeout: 60_000 });
    const header = (await compare.locator('#compare-header').innerText()).replace(/\s+/g, ' ');
    t.log(`compare: ${header.slice(0, 200)}`);
    assert.match(header, /[AB]: server\.js 2 MB · /);
    assert.match(header, /[AB]: server\.js 16 MB · /);
    assert.ok(await compare.locator('#flame-graph g').count() > 5, 'the two settings\' CPU profiles as a differential flame graph');
    await t.sleep(500);
    await t.screenshot(page, join(t.screenshotsDir, 'lab-runs-compare.png'));
  },
};
