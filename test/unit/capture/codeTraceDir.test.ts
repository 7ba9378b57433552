import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fitsV8CodeTraceDir, fitsV8CodeTracePath, prepareCodeTraceDir, STARTUP_TRACE_NAME, V8_CODE_TRACE_PATH_MAX_BYTES } from '../../../src/core/capture/codeTraceDir';
import { tempDir } from '../../../scripts/tempDirs';

const root = tempDir('v8lens-codetrace-');
after(() => rmSync(root, { recursive: true, force: true }));

/** A run folder's `v8/` path of `bytes` bytes, made of ASCII and one two-byte character. */
function deepV8Dir(bytes: number): string {
  const fixed = Buffer.byteLength(join(root, 'é', 'v8'), 'utf8') + 1;
  return join(root, 'é', 'd'.repeat(Math.max(1, bytes - fixed)), 'v8');
}

describe('code-trace folder (V8 keeps 127 bytes of --redirect-code-traces-to)', () => {
  it('counts bytes, not characters, and leaves room for the longest trace name', () => {
    assert.equal(fitsV8CodeTracePath('/'.padEnd(V8_CODE_TRACE_PATH_MAX_BYTES, 'a')), true);
    assert.equal(fitsV8CodeTracePath('/'.padEnd(V8_CODE_TRACE_PATH_MAX_BYTES + 1, 'a')), false);
    // Slash and 64 two-byte characters: 65 characters, 129 bytes.
    assert.equal(fitsV8CodeTracePath('/' + 'é'.repeat(64)), false);
    const dir = '/'.padEnd(90, 'a');
    assert.equal(fitsV8CodeTraceDir(dir), true);
    assert.ok(fitsV8CodeTracePath(join(dir, 'code-4194304-4294967295.asm')), 'the longest pid/threadId name fits');
    assert.equal(fitsV8CodeTraceDir('/'.padEnd(100, 'a')), false);
  });

  it('a folder that fits is used as it is, and nothing is staged', async () => {
    const final = join(root, 'short', 'v8');
    const traces = await prepareCodeTraceDir(final, [root]);
    assert.equal(traces.writeDir, final);
    assert.equal(traces.startupPath, join(final, STARTUP_TRACE_NAME));
    assert.equal(traces.problem, null);
    assert.equal(await traces.collect(), null);
  });

  it('a longer folder is staged in a short one, and every trace is moved into the run folder', async () => {
    const final = deepV8Dir(200);
    assert.equal(fitsV8CodeTraceDir(final), false);
    mkdirSync(final, { recursive: true });
    const traces = await prepareCodeTraceDir(final, [root]);
    assert.notEqual(traces.writeDir, final);
    assert.ok(fitsV8CodeTraceDir(traces.writeDir), traces.writeDir);
    assert.equal(traces.problem, null);
    writeFileSync(traces.startupPath, '');
    writeFileSync(join(traces.writeDir, 'code-11-0.asm'), '[bailout (kind: deopt-eager, reason: wrong map): begin.\n');
    writeFileSync(join(traces.writeDir, 'code-12-0.asm'), '[bailout (kind: deopt-eager, reason: not a Smi): begin.\n');
    assert.equal(await traces.collect(), null);
    assert.match(readFileSync(join(final, 'code-11-0.asm'), 'utf8'), /wrong map/);
    assert.match(readFileSync(join(final, 'code-12-0.asm'), 'utf8'), /not a Smi/);
    assert.ok(existsSync(join(final, STARTUP_TRACE_NAME)));
    assert.equal(existsSync(traces.writeDir), false, 'the staging folder is removed');
  });

  it('a target that wrote no trace leaves nothing behind and no warning', async () => {
    const final = deepV8Dir(180);
    mkdirSync(final, { recursive: true });
    const traces = await prepareCodeTraceDir(final, [root]);
    assert.equal(await traces.collect(), null);
    assert.deepEqual(readdirSync(final), []);
    assert.equal(existsSync(traces.writeDir), false);
  });

  it('traces that cannot be moved are kept where they are, and the warning says where', async () => {
    const final = join(deepV8Dir(190), 'not-a-folder-yet');
    const traces = await prepareCodeTraceDir(final, [root]);
    writeFileSync(join(traces.writeDir, 'code-11-0.asm'), 'trace');
    const warning = await traces.collect();
    assert.ok(warning !== null && warning.includes(traces.writeDir) && /^deopts: .*code-11-0\.asm/.test(warning), String(warning));
    assert.equal(readFileSync(join(traces.writeDir, 'code-11-0.asm'), 'utf8'), 'trace');
  });

  it('when no short folder can be made, the run goes on and says deopts will be missing', async () => {
    const final = deepV8Dir(200);
    const longRoot = dirname(deepV8Dir(140)); // a staging folder made here would not fit either
    mkdirSync(longRoot, { recursive: true });
    const traces = await prepareCodeTraceDir(final, [join(root, 'no-such-folder'), longRoot]);
    assert.equal(traces.writeDir, final);
    assert.match(traces.problem ?? '', /^deopts: .*127-byte.*shorter run folder/);
    assert.deepEqual(readdirSync(longRoot).filter((n) => n.startsWith('v8-lens-')), [], 'no staging folder is left behind');
  });
});
