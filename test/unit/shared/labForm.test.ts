import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launchJsonWithSemiSpace, packageJsonWithSemiSpace } from '../../../src/core/sweep/applySemiSpace';
import { DEFAULT_LAB_FORM, estimateSweepSeconds, parseSizes, sweepConfigFromForm } from '../../../src/core/sweep/sweepForm';
import type { SweepTarget } from '../../../src/shared/model/sweep';
import { nodeScriptOf, npmScriptWithSemiSpace, withSemiSpaceFlag } from '../../../src/core/targets/nodeCommand';

const target: SweepTarget = { label: 'server.js', node: 'node', script: '/ws/server.js', args: [], cwd: '/ws', env: {}, nodeArgs: [] };

describe('the lab form → a sweep config', () => {
  it('turns the defaults into the protocol the issue asks for', () => {
    const config = sweepConfigFromForm({ ...DEFAULT_LAB_FORM, targetId: 'x' }, target);
    assert.deepEqual(config.sizesMB, [16, 32, 64, 128, 256]);
    assert.equal(config.rounds, 3);
    assert.deepEqual(config.readiness, { kind: 'url', url: 'http://127.0.0.1:3000/', timeoutMs: 30_000 });
    assert.equal(config.load.rate, null);
    assert.equal(estimateSweepSeconds(config), (5 * 3 + 5) * 18, "and one profiling run per value");
  });

  it('refuses a load test against another host, in one sentence', () => {
    assert.throws(() => sweepConfigFromForm({ ...DEFAULT_LAB_FORM, url: 'http://example.com/' }, target), /not on this machine: load tests only target loopback/);
    assert.throws(() => sweepConfigFromForm({ ...DEFAULT_LAB_FORM, readyValue: 'http://10.0.0.2:3000/' }, target), /not on this machine/);
  });

  it('says what is wrong with sizes, rounds, headers and a missing ready line', () => {
    assert.deepEqual(parseSizes('16, 32 64MB'), [16, 32, 64]);
    assert.throws(() => parseSizes('16, 16'), /listed twice/);
    assert.throws(() => parseSizes('0.5'), /whole number of MB from 1 to 4096/);
    assert.throws(() => parseSizes(' '), /at least one/);
    assert.throws(() => sweepConfigFromForm({ ...DEFAULT_LAB_FORM, rounds: 0 }, target), /rounds must be a whole number from 1 to 30/);
    assert.throws(() => sweepConfigFromForm({ ...DEFAULT_LAB_FORM, headers: 'no colon' }, target), /is not "Name: value"/);
    assert.throws(() => sweepConfigFromForm({ ...DEFAULT_LAB_FORM, readyKind: 'line', readyValue: '' }, target), /which line the target prints/);
    const rated = sweepConfigFromForm({ ...DEFAULT_LAB_FORM, mode: 'rate', rate: 1500, headers: 'Accept: application/json\nX-A: 1', body: '{}' }, target);
    assert.equal(rated.load.rate, 1500);
    assert.deepEqual(rated.request.headers, { Accept: 'application/json', 'X-A': '1' });
  });
});

describe('Apply: the flag where the target is started', () => {
  it('replaces an earlier value in either spelling', () => {
    assert.deepEqual(withSemiSpaceFlag(['--inspect', '--max-semi-space-size=16'], 64), ['--inspect', '--max-semi-space-size=64']);
    assert.deepEqual(withSemiSpaceFlag(['--max_semi_space_size', '16', '--x'], 64), ['--x', '--max-semi-space-size=64']);
  });

  it('npm scripts that run node directly, and only those', () => {
    assert.deepEqual(nodeScriptOf('node --enable-source-maps dist/server.js --port 3000'), { nodeArgs: ['--enable-source-maps'], script: 'dist/server.js', args: ['--port', '3000'] });
    assert.equal(nodeScriptOf('next start'), null);
    assert.equal(nodeScriptOf('node a.js && node b.js'), null);
    assert.equal(npmScriptWithSemiSpace('node --max-semi-space-size=16 server.js', 64), 'node --max-semi-space-size=64 server.js');
  });

  it('edits launch.json as JSONC: comments and the other configurations stay', () => {
    const text = `{
  // my configs
  "version": "0.2.0",
  "configurations": [
    { "type": "node", "request": "launch", "name": "A", "program": "a.js" },
    {
      "type": "node", "request": "launch", "name": "API", "program": "server.js",
      "runtimeArgs": ["--inspect", "--max-semi-space-size=16"] // tuned by hand
    }
  ]
}`;
    const next = launchJsonWithSemiSpace(text, 'API', 64);
    assert.match(next, /\/\/ my configs/);
    assert.match(next, /\/\/ tuned by hand/);
    assert.match(next, /"--max-semi-space-size=64"/);
    assert.doesNotMatch(next, /=16/);
    assert.match(next, /"name": "A", "program": "a.js" \}/, 'the other configuration is untouched');
    assert.throws(() => launchJsonWithSemiSpace(text, 'Gone', 64), /no configuration named 'Gone'/);
  });

  it('edits package.json scripts, and says when a script does not start node itself', () => {
    const text = '{\n  "name": "x",\n  "scripts": {\n    "start": "node server.js",\n    "dev": "nodemon server.js"\n  }\n}\n';
    assert.match(packageJsonWithSemiSpace(text, 'start', 64), /"start": "node --max-semi-space-size=64 server.js"/);
    assert.throws(() => packageJsonWithSemiSpace(text, 'dev', 64), /does not start node directly: add --max-semi-space-size=64 to NODE_OPTIONS/);
  });
});
