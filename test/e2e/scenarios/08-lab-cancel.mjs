// Scenario: Cancel in the Semi-space Lab half-way through a sweep stops the load generator and the
// target at once, leaves no process behind, and the runs that finished are kept and shown.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, processesMatching } from '../lib/v8lens.mjs';

const CONFIG = 'Alloc service (semi-space lab)';

export default {
  name: 'Semi-space Lab: Cancel half-way kills the target and the load generator, keeps the finished runs',
  timeout: 180_000,
  async run(t) {
    const { page } = t;
    const port = await freePort();
    const launchFile = join(t.workspace, '.vscode', 'launch.json');
    const launch = JSON.parse(readFileSync(launchFile, 'utf8'));
    const config = launch.configurations.find((c) => c.name === CONFIG);
    config.env = { PORT: String(port) };
    // Scenario 07's Apply may have put its recommended --max-semi-space-size into runtimeArgs (when
    // the sweep recommended one): a sweep refuses a flag it sets itself, so this scenario starts from
    // the configuration as shipped.
    delete config.runtimeArgs;
    writeFileSync(launchFile, JSON.stringify(launch, null, 2));
    // The editor reads launch.json through its configuration, which follows the file a moment later:
    // a lab that reads it before then would start the service on the previous scenario's port.
    await t.waitFor(() => t.host.eval((vscode, want) => {
      const configs = vscode.workspace.getConfiguration('launch').get('configurations') ?? [];
      return configs.some((c) => c.env?.PORT === want && !c.runtimeArgs);
    }, String(port)), { timeout: 15_000, what: 'the editor to read the new PORT from launch.json' });

    await t.host.eval((vscode) => vscode.commands.executeCommand('v8Lens.semiSpaceLab.focus'));
    const lab = await t.webviewFrame(page, '#lab-form #lab-target', { timeout: 60_000 });
    await lab.locator('#lab-target').selectOption({ label: `Launch config: ${CONFIG}` });
    const url = `http://127.0.0.1:${port}/`;
    for (const [id, value] of [['lab-url', url], ['lab-readyValue', url], ['lab-warmupSeconds', 1], ['lab-durationSeconds', 3], ['lab-values', '8, 32'], ['lab-rounds', 3]]) {
      await lab.locator(`#${id}`).fill(String(value));
      await lab.locator(`#${id}`).dispatchEvent('change');
    }
    await lab.locator('#lab-run').click();

    // Once the first run is done and the second is under load, cancel.
    // 2 values × 3 rounds, then one profiling run per value: 8 runs.
    await lab.locator('#lab-progress', { hasText: /Run 2\/8 .*req\/s/ }).waitFor({ timeout: 90_000 });
    const ours = new RegExp(`${t.workspace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/alloc-service/server\\.js|dist/load-runner\\.js`);
    const running = processesMatching(ours);
    t.log(`before Cancel: ${running.length} processes (target + load generator)`);
    assert.ok(running.length >= 2, 'the target and the load generator are running');
    await lab.locator('#lab-cancel').click();
    await t.waitFor(() => processesMatching(ours).length === 0, {
      timeout: 15_000,
      what: 'no target or load-generator process after Cancel',
    });
    t.log('after Cancel: no target or load generator left');

    await lab.locator('#lab-results h2', { hasText: /cancelled/ }).waitFor({ timeout: 20_000 });
    const rows = await lab.locator('#lab-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    t.log(`table after Cancel: ${JSON.stringify(rows)}`);
    assert.ok(rows.some((r) => /^1\//.test(r[1])), 'the finished run is kept and shown');

    const sweeps = join(t.workspace, '.v8-lens', 'sweeps');
    const folder = readdirSync(sweeps).sort().pop();
    const sweep = JSON.parse(readFileSync(join(sweeps, folder, 'sweep.json'), 'utf8'));
    assert.equal(sweep.status, 'cancelled');
    assert.ok(sweep.results.some((r) => r.runs.some((run) => run.status === 'ok')), 'sweep.json keeps the finished run');
    assert.ok(existsSync(join(sweeps, folder)));
  },
};
