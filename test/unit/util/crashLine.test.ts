import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { crashLine } from '../../../src/core/util/errors';

describe('crashLine', () => {
  it("gives the thrown error's line of a real crash, not the file:line and source excerpt above it", () => {
    const script = "'use strict';\nconst x = null;\nx.inflate(1);\n";
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr.split('\n')[0]!, /\[eval\]:\d+/); // what Node prints first
    assert.equal(crashLine(r.stderr), "TypeError: Cannot read properties of null (reading 'inflate')");
  });

  it('knows an error with a code, and falls back to the first line that is not blank', () => {
    assert.equal(crashLine("node:internal/x:1\n  throw e;\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module 'y'\n    at z\n"), "Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'y'");
    assert.equal(crashLine('\n  out of memory  \nmore'), 'out of memory');
    assert.equal(crashLine(' \n'), null);
  });
});
