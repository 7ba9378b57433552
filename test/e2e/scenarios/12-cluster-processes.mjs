// Scenario: a `node:cluster` service (examples/cluster-service: a primary and 3 workers) profiled
// under load from the palette. The report lists every process with its own CPU and GC, the whole
// service shows one flame root per process, and picking a worker shows that worker alone.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { numAttr, profileFileUnderLoad, reportFrame } from '../lib/v8lens.mjs';

export default {
  name: 'profile a 3-worker cluster under load; the report lists the primary and each worker, and shows one worker alone',
  timeout: 180_000,
  async run(t) {
    const { page } = t;
    await profileFileUnderLoad(t, 'cluster-service/server.js');

    const frame = await reportFrame(page, { timeout: 90_000 });
    const table = frame.locator('#process-table');
    await table.waitFor({ timeout: 20_000 });
    const rows = table.locator('tbody tr');
    const texts = (await rows.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    t.log(`process rows: ${JSON.stringify(texts)}`);
    assert.equal(texts.length, 5, 'all + the primary + 3 workers');
    assert.equal(texts.filter((r) => / primary \d+ /.test(` ${r} `)).length, 1, 'one primary');
    const workerRows = texts.filter((r) => / worker \d+ /.test(` ${r} `));
    assert.equal(workerRows.length, 3, 'three workers');
    // Every worker collected garbage of its own under load.
    for (const r of workerRows) assert.match(r, / [1-9][\d,]* · \d+(\.\d+)?% /, `GC of its own: ${r}`);

    // The whole service: a root frame per process under "all".
    assert.ok(await numAttr(frame, '#flame-graph', 'data-frame-count') > 10, 'a flame graph of the whole service');

    // One worker alone: its own flame graph (its label at the root) and its own GC timeline.
    const worker = rows.filter({ hasText: 'worker' }).nth(1);
    const id = await worker.getAttribute('data-process-id');
    await worker.click();
    await t.waitFor(async () => (await frame.locator(`#process-table tr.selected[data-process-id="${id}"]`).count()) === 1, { what: 'the worker row to be selected' });
    const heading = (await frame.locator('#flame-section h2').innerText()).trim();
    t.log(`flame graph heading when worker ${id} is picked: ${heading}`);
    assert.match(heading, new RegExp(`worker · pid ${id}$`));
    assert.ok(await numAttr(frame, '#flame-graph', 'data-frame-count') > 5, "the worker's own flame graph");
    assert.ok(await numAttr(frame, '#gc-timeline', 'data-event-count') > 0, "the worker's own GC timeline");
    // Its CPU strip is labelled with the load's warm-up and measured window, like a lone process's (issue 21).
    assert.equal(await frame.locator('#flame-chart').getAttribute('data-bands'), 'warm-up|measured window');
    await frame.evaluate(() => document.getElementById('process-section').scrollIntoView({ block: 'start' }));
    await t.sleep(400);
    await t.screenshot(page, join(t.screenshotsDir, 'cluster-one-worker.png'));
  },
};
