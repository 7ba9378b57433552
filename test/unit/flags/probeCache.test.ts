/**
 * The runtime probe's cache: a real Node executable gets an entry keyed by its file, a version
 * manager's shim (a script) gets none, entries read back as written and a damaged one reads as
 * no entry.
 */
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { probeCachePath, readProbeCache, writeProbeCache } from '../../../src/core/flags/probeCache';
import { tempDir } from '../../../scripts/tempDirs';

const REPO = join(__dirname, '..', '..', '..');
const NODE22 = join(REPO, 'test', 'node-versions', 'node_modules', 'node22', 'bin', 'node');

describe('the runtime probe cache', () => {
  const cache = tempDir('v8-lens-probe-cache-');
  const env = { PATH: process.env.PATH, XDG_CACHE_HOME: cache };

  it('keys a real Node by its file: node on PATH and its absolute path share an entry, another Node has its own', () => {
    const onPath = probeCachePath('node', env);
    assert.ok(onPath?.startsWith(join(cache, 'v8-lens', 'node-probe-')), String(onPath));
    // The tests run under the Node first on PATH (test/integration/cliHarness.ts's NODES).
    assert.equal(probeCachePath(process.execPath, env), onPath);
    const other = probeCachePath(NODE22, env);
    assert.ok(other);
    assert.notEqual(other, probeCachePath(process.execPath, env));
  });

  it('has no entry for a shim script, a missing command or a directory', () => {
    const dir = tempDir('v8-lens-shim-');
    const shim = join(dir, 'node');
    writeFileSync(shim, `#!/bin/sh\nexec ${process.execPath} "$@"\n`);
    chmodSync(shim, 0o755);
    assert.equal(probeCachePath(shim, env), null);
    assert.equal(probeCachePath('node', { ...env, PATH: dir }), null);
    assert.equal(probeCachePath('/no/such/node', env), null);
    assert.equal(probeCachePath(dir, env), null);
  });

  it('reads back what it wrote, and a damaged entry as none', () => {
    const path = probeCachePath(NODE22, env)!;
    assert.equal(readProbeCache(path), null);
    const answers = { info: '{"version":"v22.0.0"}', v8Options: 'Options:\n  --foo', help: 'Usage: node' };
    writeProbeCache(path, answers);
    assert.deepEqual(readProbeCache(path), answers);
    writeFileSync(path, '{"info": 1');
    assert.equal(readProbeCache(path), null);
  });
});
