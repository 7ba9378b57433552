/**
 * What comes back to the user is bounded and cannot masquerade (issue 22): a 245-character script
 * name gets a short default run folder (not ENAMETOOLONG), a 100 KB rule or option is not echoed
 * whole, and a right-to-left override in a function name reaches the terminal, the JSON and the
 * gate's Markdown as a visible escape.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { PROGRAMS, runCli, tempDir } from './cliHarness';

const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('echoed input and names from files', () => {
  it('a 245-character script name: the default run folder is short and the run works', { timeout: 60_000 }, async () => {
    const dir = tempDir('v8-lens-long-name-');
    const script = join(dir, `${'a'.repeat(242)}.js`);
    assert.equal(basename(script).length, 245);
    copyFileSync(join(PROGRAMS, 'cpu-burn.js'), script);
    const r = await runCli(['profile', '--preset', 'cpu', '--', script, '200'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const [run] = readdirSync(join(dir, '.v8-lens', 'runs'));
    assert.ok(run && run.length <= 60, `run folder ${run}`);
    assert.match(run!, /^\d{8}-\d{6}-a{40}$/);
  });

  it('a run started in the same second as one before it gets its own default folder (-2), not an error', { timeout: 60_000 }, async () => {
    const dir = tempDir('v8-lens-same-second-');
    const script = join(dir, 'quick.js');
    writeFileSync(script, 'let x = 0;\n');
    // The folders of this second and the next few, each holding a finished run's record.
    const stamps: string[] = [];
    for (let s = 0; s < 20; s++) stamps.push(new Date(Date.now() + s * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, '').replace('T', '-'));
    for (const stamp of stamps) {
      mkdirSync(join(dir, '.v8-lens', 'runs', `${stamp}-quick`), { recursive: true });
      writeFileSync(join(dir, '.v8-lens', 'runs', `${stamp}-quick`, 'session.json'), '{}');
    }
    const r = await runCli(['profile', '--preset', 'cpu', '--', script], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    const made = readdirSync(join(dir, '.v8-lens', 'runs')).filter((n) => n.endsWith('-quick-2'));
    assert.equal(made.length, 1, `folders: ${readdirSync(join(dir, '.v8-lens', 'runs')).join(', ')}`);
    assert.ok(stamps.includes(made[0]!.replace(/-quick-2$/, '')));
    assert.match(r.stdout + r.stderr, new RegExp(made[0]!));
  });

  it('a 100 KB rule, option or command is cut in the one line that answers it', async () => {
    const dir = tempDir('v8-lens-echo-');
    for (const args of [
      ['compare', dir, dir, '--fail-on', `${'x'.repeat(100_000)}:+10%`],
      ['report', dir, `--${'y'.repeat(100_000)}`],
      ['z'.repeat(100_000)],
    ]) {
      const r = await runCli(args);
      assert.equal(r.code, 2, r.stderr.slice(0, 300));
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.ok(r.stderr.length < 1300, `${r.stderr.length} characters echoed`);
      assert.match(r.stderr, /more characters/);
    }
  });

  it('a function named with a right-to-left override: escaped in the text report, the JSON and the gate\'s Markdown', { timeout: 60_000 }, async () => {
    const dir = tempDir('v8-lens-bidi-');
    const profile = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'cpu', 'node20-work.cpuprofile'), 'utf8')) as { nodes: { callFrame: { functionName: string } }[] };
    const named = profile.nodes.filter((n) => /^[a-z]/i.test(n.callFrame.functionName));
    for (const n of named) n.callFrame.functionName = `${n.callFrame.functionName}\u202e\u2066gnp.exe\u2069`;
    const file = join(dir, 'bidi.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    const text = await runCli(['report', file]);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(!BIDI.test(text.stdout), 'no raw bidi control in the terminal text');
    assert.match(text.stdout, /\\u202e\\u2066gnp\.exe\\u2069/);
    const json = await runCli(['report', file, '--json']);
    assert.ok(!BIDI.test(json.stdout), 'none in the JSON either');
    assert.ok(JSON.parse(json.stdout).cpu.functions.some((f: { name: string }) => f.name.endsWith('\u202e\u2066gnp.exe\u2069')), 'the JSON value is the name as it is');
    const summary = join(dir, 'summary.md');
    const gate = await runCli(['compare', file, file, '--fail-on', 'cpu.self:+10%', '--summary', summary]);
    assert.equal(gate.code, 0, gate.stderr);
    assert.ok(!BIDI.test(readFileSync(summary, 'utf8')), 'none in the Markdown written for the CI job');
    assert.ok(!BIDI.test(gate.stdout));
  });
});
