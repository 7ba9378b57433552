/**
 * An npm script through the real CLI (`v8-lens profile -- npm run start`, "start": "node app.js"):
 * before it starts it says what it can collect and how to get deopts too; afterwards deopts are
 * "not collected" (never "0 deopts") and every warning is said exactly once, in summary.json, in the
 * text report and in `report <run>`. The hinted direct launch is a real command that collects deopts.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { splitCommandLine } from '../../src/core/targets/commandLine';
import { readSession, readSummary, runCli, tempDir } from './cliHarness';

const NPM_DEOPTS = 'deopts need a direct launch: Node refuses --log-deopt in NODE_OPTIONS, so no deopt log was taken';
const NPM_GC = 'GC events before the preload ran (Node start-up) are not in the trace';

const APP = `'use strict';
function add(a, b) { return a + b; }
let total = 0;
for (let i = 0; i < 300000; i++) total = add(total, i);
total = add(total, 'x'); // a string where V8 expected numbers: a deopt when launched directly
let junk = [];
for (let r = 0; r < 30; r++) { for (let i = 0; i < 20000; i++) junk.push({ i }); junk = []; }
console.log('app done', typeof total);
`;

const count = (text: string, part: string) => text.split(part).length - 1;

describe('an npm script that runs node app.js', () => {
  it('says what it collects and the direct launch before it starts; deopts "not collected"; each warning once', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'npm-app', version: '1.0.0', private: true, scripts: { start: 'node app.js' } }));
    writeFileSync(join(dir, 'app.js'), APP);
    const out = join(dir, 'run');
    const r = await runCli(['profile', '--out', out, '--', 'npm', 'run', 'start'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /app done/, "the app's output is passed through");

    // Before it starts: one line on what it collects, one hint with the direct launch.
    const ours = r.stderr.split('\n').filter((l) => l.startsWith('v8-lens:'));
    const notice = ours.findIndex((l) => l === 'v8-lens: npm run start starts Node itself, so the flags go through NODE_OPTIONS: this run collects the CPU profile, the GC trace and the allocations of every thread, except the CPU profile of a worker thread the app terminates before it stops (a direct launch keeps it); deopts need a direct launch (Node refuses --log-deopt in NODE_OPTIONS)');
    const hint = ours.findIndex((l) => l.startsWith('v8-lens: hint: npm run start runs "node app.js": to collect deopts too, profile the file directly: v8-lens profile -- app.js'));
    const started = ours.findIndex((l) => l.startsWith('v8-lens: profiling pid'));
    assert.ok(notice >= 0 && hint > notice && started > hint, `stderr: ${ours.join('\n')}`);

    const session = readSession(out);
    assert.equal(session.launch.mode, 'node-options');
    assert.equal(session.flags.preset, 'cpu-gc-deopts', 'what was asked');
    assert.deepEqual(session.flags.capture, { cpu: true, gc: true, deopts: false, alloc: true }, 'what the run collects');

    const summary = readSummary(out);
    assert.equal(summary.deoptCoverage, 'not-collected');
    assert.deepEqual(summary.deopts, []);
    assert.equal(new Set(summary.warnings).size, summary.warnings.length, `no warning twice: ${summary.warnings.join(' | ')}`);
    assert.equal(summary.warnings.filter((w) => w === NPM_DEOPTS).length, 1);
    assert.equal(summary.warnings.filter((w) => w === NPM_GC).length, 1);
    assert.equal(summary.warnings.filter((w) => /deopt|V8 log/i.test(w)).length, 1, `one reason for the missing deopts: ${summary.warnings.join(' | ')}`);

    for (const text of [r.stdout, (await runCli(['report', out], { cwd: dir })).stdout]) {
      assert.match(text, /^Deopts: not collected \(deopts need a direct launch/m);
      assert.equal(count(text, NPM_DEOPTS), 1, text);
      assert.equal(count(text, NPM_GC), 1, text);
      assert.doesNotMatch(text, /\b0 deopts|none recorded/);
    }

    // The hint is a command that works, and it collects the deopts npm could not.
    const hinted = splitCommandLine(ours[hint]!.slice(ours[hint]!.indexOf('v8-lens profile ') + 'v8-lens '.length));
    const directOut = join(dir, 'direct');
    const direct = await runCli([hinted[0]!, '--out', directOut, ...hinted.slice(1)], { cwd: dir });
    assert.equal(direct.code, 0, direct.stderr);
    const directSummary = readSummary(directOut);
    assert.equal(directSummary.deoptCoverage, 'collected');
    assert.ok(directSummary.deopts.some((d) => d.function === 'add'), `deopts: ${JSON.stringify(directSummary.deopts.map((d) => [d.function, d.reason]))}`);
    assert.doesNotMatch(direct.stderr, /NODE_OPTIONS/);
  });

  it('a preset without deopts: the notice says what it collects and no hint is given', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'npm-app', version: '1.0.0', private: true, scripts: { start: 'node app.js' } }));
    writeFileSync(join(dir, 'app.js'), APP);
    const r = await runCli(['profile', '--preset', 'gc', '--out', join(dir, 'run'), '--', 'npm', 'start'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^v8-lens: npm start starts Node itself, so the flags go through NODE_OPTIONS: this run collects the GC trace of every thread$/m);
    assert.doesNotMatch(r.stderr, /hint:/);
    assert.match(r.stdout, /^Deopts: not collected$/m);
  });
});
