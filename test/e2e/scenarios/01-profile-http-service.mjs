// Scenario 1: profile the example HTTP service from the palette, load it from the driver, Stop &
// Collect, and check the report webview that opens.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { findDescendant, listeningPorts, numAttr, reportFrame, sendLoad } from '../lib/v8lens.mjs';

export default {
  name: 'profile http-service/server.js from the palette under load, Stop & Collect, report opens',
  timeout: 240_000,
  async run(t) {
    const { page } = t;
    await t.openFileQuick(page, 'http-service/server.js');
    t.log('server.js open');

    await t.runCommand(page, 'V8 Lens: Profile with GC Trace');
    t.log('palette: Profile with GC Trace');
    await t.waitForQuickInput(page, /What to profile/);
    const targets = await t.quickPickItems(page);
    t.log('targets:', targets.join(' | '));
    for (const want of [/Active file: server\.js/, /npm script: start/, /Launch config: HTTP service \(demo traffic\)/, /Command line…/]) {
      assert.ok(targets.some((l) => want.test(l)), `"What to profile" lists ${want}: ${JSON.stringify(targets)}`);
    }
    await t.pickQuickItem(page, 'Active file: server.js');

    await t.waitForQuickInput(page, /What to collect/);
    const presets = await t.quickPickItems(page);
    assert.match(presets[0], /^CPU \+ GC trace \+ deopts/, `first preset: ${JSON.stringify(presets)}`);
    await t.pickQuickItem(page, /^CPU \+ GC trace \+ deopts/);
    // This scenario drives the load itself, then uses Stop & Collect.
    await t.waitForQuickInput(page, /Drive it with HTTP load/);
    await t.pickQuickItem(page, 'No load');

    // The run started: the program is a descendant of code-server (via the extension host), and
    // listens on a port of its own choosing on loopback.
    const pid = await findDescendant(t.server.pid, /http-service\/server\.js/, { timeout: 30_000 });
    const port = await t.waitFor(() => listeningPorts(pid)[0], { timeout: 20_000, what: 'the service to listen' });
    t.log(`service pid ${pid} listening on 127.0.0.1:${port}`);
    const load = await sendLoad(port, 4_000, { concurrency: 8 });
    t.log(`load: ${load.ok} responses, ${load.errors} errors`);
    assert.ok(load.ok > 50, `the service answered the load (${load.ok} ok)`);

    // Stop & Collect is in the palette only while a run is going (when: v8Lens.running).
    await t.runCommand(page, 'V8 Lens: Stop & Collect', { timeout: 20_000 });
    await t.waitFor(() => !existsSync(`/proc/${pid}`), { timeout: 30_000, what: 'the service to exit after Stop & Collect' });

    t.log('Stop & Collect: the service exited');
    const frame = await reportFrame(page);
    t.log('report rendered');
    const frames = await t.waitFor(async () => {
      const n = await numAttr(frame, '#flame-graph', 'data-frame-count');
      return n > 30 ? n : 0;
    }, { timeout: 20_000, what: '#flame-graph[data-frame-count] > 30' });
    const events = await numAttr(frame, '#gc-timeline', 'data-event-count');
    t.log(`flame graph: ${frames} frames; GC timeline: ${events} events`);
    assert.ok(events > 0, `#gc-timeline[data-event-count] = ${events} > 0`);
    for (const sel of ['#gc-cards', '#hot-functions', '#deopt-table', '#run-meta']) {
      assert.equal(await frame.locator(sel).count(), 1, `${sel} is in the report`);
    }
    await frame.locator('#hot-functions').getByText(/buildOrder|summarize/).first().waitFor({ timeout: 5_000 });

    // The run folder is in the workspace's runs folder, with its summary.
    const runsDir = join(t.workspace, '.v8-lens', 'runs');
    const runs = readdirSync(runsDir);
    assert.equal(runs.length, 1, `one run folder: ${runs}`);
    assert.ok(existsSync(join(runsDir, runs[0], 'summary.json')), 'summary.json written');
    await t.screenshot(page, join(t.runDir, 'http-service-report.png'));

    // The V8 Lens activity-bar container's Sessions view lists the run with its figures.
    await page.locator('.part.activitybar [aria-label^="V8 Lens"]').first().click();
    const row = page.locator('.part.sidebar .monaco-list-row', { hasText: 'server.js' }).first();
    await row.waitFor({ timeout: 15_000 });
    const rowText = await row.textContent();
    t.log(`Sessions view: ${rowText}`);
    assert.match(rowText, /GC \d+(\.\d)?%/);
  },
};
