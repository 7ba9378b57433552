// Scenario: "V8 Lens: Attach and Profile…" on the demo HTTP service that is already running (with
// its own demo traffic): the live banner's GC counters move, Stop & Collect gives a flame graph,
// and the service keeps running and answering afterwards.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { numAttr, reportFrame } from '../lib/v8lens.mjs';

function get(port) {
  return new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port, path: '/orders/1' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }).on('error', () => resolve(0));
  });
}

export default {
  name: 'Attach and Profile on the running demo service: live GC counters move, Stop & Collect gives a flame graph, the service lives on',
  timeout: 180_000,
  async run(t) {
    const { page } = t;
    // The service, started outside V8 Lens, with an inspector on a free loopback port.
    const service = spawn(process.execPath, ['--inspect=127.0.0.1:0', join(t.workspace, 'http-service', 'server.js')], {
      cwd: t.workspace,
      env: { ...process.env, DEMO_TRAFFIC: '1', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    service.stdout.on('data', (d) => (out += d));
    service.stderr.on('data', (d) => (out += d));
    const port = await t.waitFor(() => Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]) || null, { timeout: 20_000, what: 'the service to print its port' });
    t.log(`service pid ${service.pid} on port ${port}`);
    try {
      await t.runCommand(page, 'V8 Lens: Attach and Profile…');
      await t.waitForQuickInput(page, /Attach to which Node process/);
      await t.pickQuickItem(page, `pid ${service.pid}`);
      await t.waitForQuickInput(page, /for how long/);
      await t.pickQuickItem(page, 'Until I stop');

      const frame = await t.webviewFrame(page, '#live-status', { timeout: 60_000 });
      const first = await t.waitFor(async () => (await numAttr(frame, '#live-status', 'data-gc-count')) || null, { timeout: 30_000, what: 'the first live GC events' });
      const later = await t.waitFor(async () => {
        const n = await numAttr(frame, '#live-status', 'data-gc-count');
        return n > first ? n : null;
      }, { timeout: 30_000, what: 'the live GC count to move' });
      t.log(`live: ${(await frame.locator('#live-status').textContent()).trim()} (GC count ${first} → ${later})`);
      assert.ok(await numAttr(frame, '#gc-timeline', 'data-event-count') > 0, 'the live GC timeline has points');
      await frame.evaluate(() => document.getElementById('live-status')?.scrollIntoView({ block: 'start' }));
      await t.screenshot(page, join(t.screenshotsDir, 'attach-live.png'));

      await t.runCommand(page, 'V8 Lens: Stop & Collect', { timeout: 20_000 });
      const report = await reportFrame(page, { timeout: 60_000 });
      const frames = await t.waitFor(async () => (await numAttr(report, '#flame-graph', 'data-frame-count')) || null, { timeout: 30_000, what: 'the flame graph after Stop & Collect' });
      t.log(`flame graph: ${frames} frames`);
      assert.match(await report.locator('#deopt-section').textContent(), /not available when attaching/);

      // Detached: the service is still there and still answers.
      assert.equal(service.exitCode, null, 'the service is still running');
      assert.equal(await get(port), 200, 'and still answers');
    } finally {
      service.kill('SIGKILL');
    }
  },
};
