// Scenario: a fastify service with a piscina pool of 2 worker threads (test/fixtures/apps/worker-pool,
// installed from its lockfile) profiled under load from the palette. The workers wait in piscina's
// Atomics.wait loop nearly all the time: the report opens on the main thread (the busiest by on-CPU
// time), each worker's row gives its own CPU as the OS counted it beside its waiting share, the wait
// is no hot function, and "all" says in place which views need one thread picked.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { numAttr, profileFileUnderLoad, reportFrame } from '../lib/v8lens.mjs';

export default {
  name: 'profile a piscina worker pool under load; the report opens on the main thread, workers shown waiting with their own CPU',
  timeout: 180_000,
  async run(t) {
    const { page } = t;
    await profileFileUnderLoad(t, 'worker-pool/app.js');

    const frame = await reportFrame(page, { timeout: 90_000 });
    const table = frame.locator('#process-table');
    await table.waitFor({ timeout: 20_000 });
    const rows = table.locator('tbody tr');
    const texts = (await rows.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    t.log(`process rows: ${JSON.stringify(texts)}`);
    assert.equal(texts.length, 4, 'all + the main thread + 2 workers');

    // Opened on the main thread, not on "all".
    const selected = table.locator('tbody tr.selected');
    assert.equal(await selected.count(), 1);
    const selectedText = (await selected.innerText()).replace(/\s+/g, ' ');
    assert.match(selectedText, /\bmain\b/, `the main thread is picked: ${selectedText}`);
    assert.match(await frame.locator('#flame-section h2').innerText(), /main · pid \d+$/);

    // Each worker: its own CPU time over its life, and its profile mostly waiting.
    const workers = texts.filter((r) => /worker thread/.test(r));
    assert.equal(workers.length, 2);
    for (const w of workers) {
      const m = /(\d+(?:\.\d)?)% CPU \([\d.]+ (?:ms|s) of [\d.]+ s\) · (\d+)% waiting/.exec(w);
      assert.ok(m, `CPU and waiting in the row: ${w}`);
      assert.ok(Number(m[1]) < 20 && Number(m[2]) > 50, `a waiting worker: ${w}`);
    }
    const hot = (await frame.locator('#hot-functions').innerText()).replace(/\s+/g, ' ');
    assert.doesNotMatch(hot, /atomicsWaitLoop/, 'the wait is no hot function');
    assert.ok(await numAttr(frame, '#flame-graph', 'data-frame-count') > 10, "the main thread's flame graph");

    await frame.evaluate(() => document.getElementById('process-section').scrollIntoView({ block: 'start' }));
    await t.sleep(400);
    await t.screenshot(page, join(t.screenshotsDir, 'worker-pool.png'));

    // "All" is one click away, and says which views work on one thread at a time.
    await rows.first().click();
    await t.waitFor(async () => (await frame.locator('#process-table tr.selected[data-process-id="all"]').count()) === 1, { what: '"all" to be selected' });
    const note = (await frame.locator('#all-views-note').innerText()).trim();
    t.log(`all: ${note}`);
    assert.match(note, /one process or thread at a time/);
  },
};
