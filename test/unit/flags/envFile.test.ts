import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { envFileText } from '../../../src/core/flags/envFile';
import { tempDir } from '../../../scripts/tempDirs';

describe("the preload's settings as Node's --env-file", () => {
  it('reads back unchanged in Node itself: spaces, #, =, quotes of one kind, backslashes', () => {
    const env = {
      V8_LENS_AGENT_DIR: '/tmp/a run #1/x=y/agent',
      V8_LENS_TRACE_GC: 'nvp',
      V8_LENS_ALLOC_DIR: "/tmp/it's/heap",
      V8_LENS_CODE_TRACE_DIR: 'C:\\runs\\v8 "quoted"',
    };
    const text = envFileText(env);
    assert.ok(text !== null);
    const file = join(tempDir(), 'agent.env');
    writeFileSync(file, text);
    const r = spawnSync(process.execPath, [`--env-file=${file}`, '-e', `process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('V8_LENS_')))))`], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), env);
  });

  it("gives up (null) on what Node's parser would change: a line break, both quotes with a backslash", () => {
    assert.equal(envFileText({ A: 'one\ntwo' }), null);
    assert.equal(envFileText({ A: `it's "x" \\n` }), null);
    assert.equal(envFileText({ 'NOT-A-NAME': 'x' }), null);
    assert.equal(envFileText({}), '\n');
  });
});
