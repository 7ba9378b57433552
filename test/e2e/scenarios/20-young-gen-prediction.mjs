// Scenario: the seeds' case in small. The example young-gen-service (a 2-worker cluster whose requests
// keep their data across a few ms of I/O) is profiled under load from its launch configuration; the
// report's "A bigger young generation" predicts fewer scavenges and less young-GC pause at a bigger
// semi-space and recommends one; "Confirm in the Semi-space Lab" sweeps the run's size, the
// recommended one and one between under the run's load, and the lab's results show the prediction
// beside the measurement. Screenshots of the prediction and of the side-by-side go to the README.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launchConfigOnFreePort, reportFrame } from '../lib/v8lens.mjs';

const CONFIG = 'Young-gen service (prediction)';

export default {
  name: 'young-gen prediction: profile the example cluster under load, the report predicts a bigger young generation, Confirm in the Semi-space Lab shows predicted beside measured',
  timeout: 480_000,
  viewport: { width: 1600, height: 1100 },
  async run(t) {
    const { page } = t;
    // The service listens on PORT from its launch configuration: a free one, kept for the lab's runs.
    const port = await launchConfigOnFreePort(t, CONFIG);
    // The workbench reads launch.json again a moment later: the run must start with the new PORT,
    // which the lab's runs take from the configuration too.
    await t.waitFor(() => t.host.eval((vscode, name, want) => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      const configs = vscode.workspace.getConfiguration('launch', folder?.uri).get('configurations') ?? [];
      return configs.find((c) => c.name === name)?.env?.PORT === want;
    }, CONFIG, String(port)), { timeout: 20_000, what: 'the launch configuration with the new PORT' });

    await t.runCommand(page, 'V8 Lens: Profile with GC Trace');
    await t.waitForQuickInput(page, /What to profile/);
    await t.pickQuickItem(page, `Launch config: ${CONFIG}`);
    await t.waitForQuickInput(page, /What to collect/);
    await t.pickQuickItem(page, /^CPU \+ GC trace \+ deopts/);
    await t.waitForQuickInput(page, /Drive it with HTTP load/);
    await t.pickQuickItem(page, 'Under load: the URL it prints');
    await t.waitForQuickInput(page, /How much load/);
    await t.pickQuickItem(page, '5 s, 10 connections');

    const frame = await reportFrame(page, { timeout: 120_000 });
    const panel = frame.locator('#prediction-panel');
    await panel.waitFor({ timeout: 30_000 });
    const verdict = (await panel.locator('[data-note="recommendation"]').innerText()).trim();
    const rows = await frame.locator('#prediction-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    t.log(`prediction: ${verdict}`);
    t.log(`table: ${JSON.stringify(rows)}`);
    assert.ok(rows.length >= 3, 'the current size, then 2× and 4× at least');
    assert.match(rows[0][0], /\(now\)/);
    // Scavenges per 1k fall with the size, row after row.
    const scavenges = rows.map((r) => Number(r[1].replace(/,/g, '')));
    for (let i = 1; i < scavenges.length; i++) assert.ok(scavenges[i] < scavenges[i - 1], `scavenges per 1k fall: ${scavenges.join(' > ')}`);
    // The seeds' case: a bigger young generation is worth it here, and the memory bill is per process.
    const recommended = /^(\d+) MB: ~[\d.]+ scavenges per 1k requests \(now [\d.]+\), young-GC pause [\d.,–]+ ms per 1k requests \(now [\d.,]+ ms\), \+\d+ MB per process \(\d processes: \+\d+ MB\) of memory/.exec(verdict);
    assert.ok(recommended, `a recommended size with its figures and the memory per process: ${verdict}`);
    await frame.evaluate(() => document.getElementById('prediction-section').scrollIntoView({ block: 'start' }));
    await t.sleep(500);
    await t.screenshot(page, join(t.screenshotsDir, 'prediction-dark.png'));

    // Confirm: the lab runs the sweep the prediction names.
    await panel.locator('#prediction-confirm').click();
    const lab = await t.webviewFrame(page, '#lab-form #lab-target', { timeout: 60_000 });
    await lab.locator('#lab-progress', { hasText: /Run \d+\/\d+/ }).waitFor({ timeout: 60_000 });
    t.log(`lab: ${await lab.locator('#lab-progress').textContent()}`);
    await lab.locator('#lab-results h2', { hasText: /Results · finished/ }).waitFor({ timeout: 420_000 });
    const sizes = await lab.locator('#lab-table tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-value'))));
    t.log(`swept: ${sizes.join(', ')} MB`);
    assert.ok(sizes.includes(Number(recommended[1])), `the recommended ${recommended[1]} MB was swept`);

    // The results in a wide panel: predicted beside measured, with the error.
    await lab.locator('button', { hasText: 'Open results' }).click();
    const results = await t.webviewFrame(page, 'html[data-mode="results"] #lab-prediction-table', { timeout: 30_000 });
    const side = await results.locator('#lab-prediction-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    t.log(`predicted beside measured: ${JSON.stringify(side)}`);
    t.log(`summary: ${await results.locator('#lab-prediction-summary').innerText()}`);
    assert.equal(side.length, sizes.length);
    // Columns: size, scavenges predicted, measured, error, pause predicted, measured, in range, error, direction.
    for (const row of side) {
      assert.match(row[2], /^[\d.,]+$/, `the lab measured ${row[0]}`);
      assert.match(row[3], /^[+−±]\d+%$/, `with the error: ${row[3]}`);
    }
    await t.host.eval(async (vscode) => {
      await vscode.commands.executeCommand('workbench.action.closePanel');
    });
    await results.evaluate(() => document.getElementById('lab-prediction').scrollIntoView({ block: 'start' }));
    await t.sleep(800);
    await t.screenshot(page, join(t.screenshotsDir, 'prediction-confirmed.png'));
  },
};
