// Scenario: "Profile with GC Trace" on the demo HTTP service *under load* from the palette: V8 Lens
// finds the URL it prints, drives it with the forked load generator, stops and collects on its
// own, and the report shows req/s and latency beside the GC of the same window.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { numAttr, profileFileUnderLoad, reportFrame } from '../lib/v8lens.mjs';

export default {
  name: 'profile the demo HTTP service under load from the palette; req/s and latency beside the GC timeline',
  timeout: 180_000,
  async run(t) {
    const { page } = t;
    await profileFileUnderLoad(t, 'http-service/server.js');

    // No Stop & Collect: the run ends when the load does, and the report opens.
    const frame = await reportFrame(page, { timeout: 90_000 });
    const cards = frame.locator('#load-cards');
    await cards.waitFor({ timeout: 20_000 });
    const card = async (key) => (await cards.locator(`[data-card="${key}"]`).innerText()).replace(/\s+/g, ' ').trim();
    const figures = { rps: await card('rps'), latency: await card('latency'), failed: await card('failed'), gc: await card('gc-window') };
    t.log(`load cards: ${JSON.stringify(figures)}`);
    const rps = Number(/([\d,]+) req\/s/.exec(figures.rps)?.[1].replace(/,/g, ''));
    assert.ok(rps > 100, `req/s in the report: ${figures.rps}`);
    assert.match(figures.latency, /p50 \/ p99 \d+ \/ \d+ ms/);
    assert.match(figures.failed, /^Failed requests 0 /);
    assert.match(figures.gc, /GC in the same window .*\d+ scavenges/);
    assert.ok(await numAttr(frame, '#gc-timeline', 'data-event-count') > 0, 'the GC timeline of the same run');
    assert.ok(await numAttr(frame, '#flame-graph', 'data-frame-count') > 10, 'and its flame graph');
    await frame.evaluate(() => document.getElementById('load-section').scrollIntoView({ block: 'start' }));
    await t.sleep(300);
    await t.screenshot(page, join(t.screenshotsDir, 'profile-under-load.png'));

    // Which URL was loaded, in the report header and in the Sessions view's row (issue 21: runs of
    // one service under two routes looked alike).
    const loaded = (await frame.locator('#run-meta [data-meta="load"] dd').innerText()).trim();
    t.log(`header, loaded: ${loaded}`);
    assert.match(loaded, /^http:\/\/127\.0\.0\.1:\d+\/\S* · \d+ connections · as fast as it answers · \d+(\.\d)? s warm-up \+ \d+(\.\d)? s measured$/);
    const path = new URL(loaded.split(' · ')[0]).pathname;
    await page.locator('.part.activitybar [aria-label^="V8 Lens"]').first().click();
    // Other scenarios' runs of server.js may be listed too: this one is the row that names its path.
    const row = page.locator('.part.sidebar .monaco-list-row', { hasText: `GET ${path} · ` }).first();
    await row.waitFor({ timeout: 15_000 });
    const rowText = (await row.textContent()) ?? '';
    t.log(`Sessions view: ${rowText}`);
    assert.match(rowText, /server\.js/);
  },
};
