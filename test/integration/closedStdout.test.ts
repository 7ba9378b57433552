/**
 * `v8-lens profile … | head -c 1000`: the reader of V8 Lens's stdout goes away early. That must not
 * cost the run: no EPIPE stack trace, the target is not killed, and the run folder is complete.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CLI, PROGRAMS, collect, readSession, readSummary, tempDir } from './cliHarness';

describe('stdout closed by the consumer', () => {
  it('profile | head -c 1000 leaves a complete run folder and no stack trace', async () => {
    const out = join(tempDir(), 'run');
    const pipeline = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} profile --out ${JSON.stringify(out)} -- ${JSON.stringify(join(PROGRAMS, 'chatty.js'))} 2500 | head -c 1000 > /dev/null; exit \${PIPESTATUS[0]}`;
    const r = await collect(spawn('bash', ['-c', pipeline], { stdio: ['ignore', 'pipe', 'pipe'] }), 60_000);
    assert.doesNotMatch(r.stderr, /Error: write EPIPE|Unhandled 'error'|^\s+at /m, 'no stack trace');
    assert.match(r.stderr, /stdout was closed/, 'one note says the output is dropped');
    assert.equal(r.code, 0, r.stderr);
    const session = readSession(out);
    assert.equal(session.status, 'finished', 'the target ran to its end');
    const summary = readSummary(out);
    assert.ok(summary.cpu && summary.cpu.sampleCount > 100, 'the CPU profile is kept');
    assert.equal(readdirSync(join(out, 'cpu')).filter((f) => f.endsWith('.cpuprofile')).length, 1);
    assert.match(r.stderr, /run folder: /, 'the CLI still says where the run is');
  });
});
