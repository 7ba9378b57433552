import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fitsV8CodeTracePath, prepareCodeTraceFile, V8_CODE_TRACE_PATH_MAX_BYTES } from '../../../src/core/capture/codeTraceFile';

const root = mkdtempSync(join(tmpdir(), 'v8lens-codetrace-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A run folder path whose code trace is `bytes` long, made of ASCII and one two-byte character. */
function deepTracePath(bytes: number): string {
  const tail = join('v8', 'code-traces.asm');
  const fixed = Buffer.byteLength(join(root, 'é', tail), 'utf8') + 1;
  return join(root, 'é', 'd'.repeat(Math.max(1, bytes - fixed)), tail);
}

describe('code-trace path (V8 keeps 127 bytes of --redirect-code-traces-to)', () => {
  it('counts bytes, not characters', () => {
    assert.equal(fitsV8CodeTracePath('/'.padEnd(V8_CODE_TRACE_PATH_MAX_BYTES, 'a')), true);
    assert.equal(fitsV8CodeTracePath('/'.padEnd(V8_CODE_TRACE_PATH_MAX_BYTES + 1, 'a')), false);
    // Slash and 64 two-byte characters: 65 characters, 129 bytes.
    assert.equal(fitsV8CodeTracePath('/' + 'é'.repeat(64)), false);
  });

  it('a path that fits is used as it is, and nothing is staged', async () => {
    const final = join(root, 'short', 'code-traces.asm');
    const file = await prepareCodeTraceFile(final, [root]);
    assert.equal(file.writePath, final);
    assert.equal(file.problem, null);
    assert.equal(await file.collect(), null);
  });

  it('a longer path is staged in a short folder and the trace moved into the run folder', async () => {
    const final = deepTracePath(200);
    assert.equal(fitsV8CodeTracePath(final), false);
    mkdirSync(dirname(final), { recursive: true });
    const file = await prepareCodeTraceFile(final, [root]);
    assert.notEqual(file.writePath, final);
    assert.ok(fitsV8CodeTracePath(file.writePath), file.writePath);
    assert.equal(file.problem, null);
    writeFileSync(file.writePath, '[bailout (kind: deopt-eager, reason: wrong map): begin.\n');
    assert.equal(await file.collect(), null);
    assert.match(readFileSync(final, 'utf8'), /wrong map/);
    assert.equal(existsSync(dirname(file.writePath)), false, 'the staging folder is removed');
  });

  it('a target that wrote no trace leaves nothing behind and no warning', async () => {
    const final = deepTracePath(180);
    mkdirSync(dirname(final), { recursive: true });
    const file = await prepareCodeTraceFile(final, [root]);
    assert.equal(await file.collect(), null);
    assert.equal(existsSync(final), false);
    assert.equal(existsSync(dirname(file.writePath)), false);
  });

  it('a trace that cannot be moved is kept where it is, and the warning says where', async () => {
    const final = join(deepTracePath(190), 'not-a-folder-yet', 'code-traces.asm');
    const file = await prepareCodeTraceFile(final, [root]);
    writeFileSync(file.writePath, 'trace');
    const warning = await file.collect();
    assert.ok(warning !== null && warning.includes(file.writePath) && /^deopts: /.test(warning), String(warning));
    assert.equal(readFileSync(file.writePath, 'utf8'), 'trace');
  });

  it('when no short folder can be made, the run goes on and says deopts will be missing', async () => {
    const final = deepTracePath(200);
    const longRoot = dirname(deepTracePath(140)); // a staging folder made here would not fit either
    mkdirSync(longRoot, { recursive: true });
    const file = await prepareCodeTraceFile(final, [join(root, 'no-such-folder'), longRoot]);
    assert.equal(file.writePath, final);
    assert.match(file.problem ?? '', /^deopts: .*127 bytes.*shorter run folder/);
    assert.deepEqual(readdirSync(longRoot).filter((n) => n.startsWith('v8-lens-')), [], 'no staging folder is left behind');
  });
});
