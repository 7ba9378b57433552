// Scenario: Cancel kills at once and leaves no process behind. The "HTTP service (demo traffic)"
// launch configuration starts the service and, from it, a load-generator process; after
// "V8 Lens: Cancel Run" both are gone, the run is recorded as cancelled and its GC trace is kept.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findDescendant, profileLaunchConfig } from '../lib/v8lens.mjs';

export default {
  name: 'Cancel Run on the self-loading HTTP service kills it and its child; the run is kept as cancelled',
  async run(t) {
    const { page } = t;
    await profileLaunchConfig(t, 'HTTP service (demo traffic)');

    const server = await findDescendant(t.server.pid, /http-service\/server\.js/, { timeout: 30_000 });
    const traffic = await findDescendant(t.server.pid, /http-service\/traffic\.js/, { timeout: 30_000 });
    t.log(`service pid ${server}, traffic pid ${traffic}`);
    await page.waitForTimeout(2_000); // let it serve and collect some GC events

    await t.runCommand(page, 'V8 Lens: Cancel Run', { timeout: 20_000 });
    await t.waitFor(() => !existsSync(`/proc/${server}`) && !existsSync(`/proc/${traffic}`), {
      timeout: 15_000,
      what: 'the service and its load generator to be gone after Cancel',
    });

    const runsDir = join(t.workspace, '.v8-lens', 'runs');
    const session = await t.waitFor(() => {
      for (const name of existsSync(runsDir) ? readdirSync(runsDir) : []) {
        const file = join(runsDir, name, 'session.json');
        const s = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
        if (s && s.pid === server && s.status !== 'running') return { s, dir: join(runsDir, name) };
      }
      return null;
    }, { timeout: 20_000, what: 'the cancelled run to be recorded' });
    assert.equal(session.s.status, 'cancelled');
    assert.equal(session.s.exit.requested, 'kill');
    const summary = JSON.parse(readFileSync(join(session.dir, 'summary.json'), 'utf8'));
    assert.ok(summary.gc && summary.gc.eventCount > 0, 'the GC trace collected before the kill is kept');
    t.log(`cancelled run kept ${summary.gc.eventCount} GC events; warnings: ${summary.warnings.join(' | ')}`);
  },
};
