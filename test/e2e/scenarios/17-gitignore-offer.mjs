// Scenario: the first run written into a git workspace offers to add .v8-lens/ to .gitignore, once
// (issue 21). The workspace becomes a git repository; a profile of a short script from the palette
// brings the offer to the Notifications center (toasts are off under the smoke driver); its button
// adds the line, and git itself then ignores the runs. With the line taken out again, the next run
// does not ask a second time: the workspace remembers the offer.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reportFrame } from '../lib/v8lens.mjs';

const OFFER = /Add \.v8-lens\/ to \.gitignore so they are not committed\?/;

/** "Profile with GC Trace" on the CPU-bound example, without load: it ends by itself and its report opens. */
async function profilePrimes(t) {
  const runsDir = join(t.workspace, '.v8-lens', 'runs');
  const before = existsSync(runsDir) ? readdirSync(runsDir).length : 0;
  await t.openFileQuick(t.page, 'cpu-bound/primes.js');
  await t.runCommand(t.page, 'V8 Lens: Profile with GC Trace');
  await t.waitForQuickInput(t.page, /What to profile/);
  await t.pickQuickItem(t.page, 'Active file: primes.js');
  await t.waitForQuickInput(t.page, /What to collect/);
  await t.pickQuickItem(t.page, /^CPU \+ GC trace \+ deopts/);
  await t.waitForQuickInput(t.page, /Drive it with HTTP load/);
  await t.pickQuickItem(t.page, 'No load');
  await reportFrame(t.page, { timeout: 90_000 });
  await t.waitFor(() => existsSync(runsDir) && readdirSync(runsDir).length > before, { what: 'a new run folder' });
}

const offers = async (t) => (await t.notifications(t.page)).filter((m) => OFFER.test(m));

export default {
  name: 'the first run in a git workspace offers .v8-lens/ to .gitignore, once; the button adds it and git ignores the runs',
  timeout: 240_000,
  async run(t) {
    const { page } = t;
    execFileSync('git', ['init', '-q', t.workspace]);
    const gitignore = join(t.workspace, '.gitignore');
    rmSync(gitignore, { force: true });

    await profilePrimes(t);
    const offered = await t.waitFor(async () => ((await offers(t)).length > 0 ? offers(t) : null), { timeout: 30_000, what: 'the .gitignore offer in the Notifications center' });
    t.log(`offer: ${offered[0]}`);
    assert.equal(offered.length, 1, 'one offer, though the run was seen twice (its session.json and its end)');

    // Its button, in the Notifications center.
    await t.runCommand(page, 'Notifications: Show Notifications', { timeout: 10_000 });
    const item = page.locator('.notifications-center .notification-list-item', { hasText: 'to .gitignore so they are not committed' }).first();
    await item.locator('.monaco-button', { hasText: 'Add to .gitignore' }).click();
    await t.waitFor(() => existsSync(gitignore) && readFileSync(gitignore, 'utf8').includes('.v8-lens/'), { what: '.v8-lens/ in .gitignore' });
    await page.keyboard.press('Escape');
    assert.equal(readFileSync(gitignore, 'utf8'), '# V8 Lens runs and lab sweeps (profiles, traces)\n.v8-lens/\n');
    // git itself now ignores every run.
    const run = readdirSync(join(t.workspace, '.v8-lens', 'runs'))[0];
    execFileSync('git', ['check-ignore', '-q', `.v8-lens/runs/${run}/session.json`], { cwd: t.workspace });

    // Taken out again, the next run does not ask a second time.
    rmSync(gitignore);
    await profilePrimes(t);
    await t.sleep(3000);
    assert.deepEqual(await offers(t), [], 'asked once per workspace');
  },
};
