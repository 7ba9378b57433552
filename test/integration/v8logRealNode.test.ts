import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { ProfileRun } from '../../src/core/capture/profileRun';
import { DEFAULT_ALLOC_SAMPLING_BYTES, DEFAULT_PRESET, PRESETS } from '../../src/core/flags/presets';
import { summarizeDeopts } from '../../src/core/v8log/deoptSummary';
import { findV8LogFiles, readV8LogFiles } from '../../src/core/v8log/v8LogReader';
import { DEOPTS_PROGRAM, describeSite, loadExpectedSites, siteFound } from '../unit/v8log/expectedSites';
import { NODES } from './cliHarness';
import { tempDir } from '../../scripts/tempDirs';

const dir = tempDir('v8lens-deopts-');
after(() => rmSync(dir, { recursive: true, force: true }));

for (const node of NODES) {
  it(`real Node (${node.label}): deopts.js produces every expected deopt site (--no-concurrent-recompilation)`, { timeout: 20_000 }, async () => {
    const logDir = join(dir, `log-${node.major}`);
    const flags = [
      '--no-concurrent-recompilation',
      '--log-deopt',
      '--log-code',
      `--logfile=${join(logDir, 'v8.log')}`,
      '--redirect-code-traces',
      `--redirect-code-traces-to=${join(logDir, 'code.asm')}`,
    ];
    mkdirSync(logDir);
    const run = spawnSync(node.path, [...flags, DEOPTS_PROGRAM], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    // The redirect flags keep V8's bailout traces out of the program's stdout.
    assert.equal(run.stdout, 'done a9b 1498500\n');

    const files = await findV8LogFiles(logDir);
    assert.equal(files.length, 1, 'one isolate, one per-isolate log file');
    const analysis = await readV8LogFiles(files);
    assert.equal(analysis.counters.malformedLines, 0);
    assert.equal(analysis.counters.truncatedLines, 0);
    // Every code-deopt line the log holds was read (the run's self-check), and there are some.
    assert.ok(analysis.counters.deoptEvents >= loadExpectedSites().length, `${analysis.counters.deoptEvents} code-deopt lines`);
    assert.equal(analysis.deopts.length, analysis.counters.deoptEvents);
    // Up to Node 24 --log-deopt also writes each bailout to the code trace: V8's second account of
    // the same deopts. V8 14.6 (Node 26) writes bailouts there only with --trace-deopt.
    const codeTrace = join(logDir, 'code.asm');
    const bailouts = existsSync(codeTrace) ? readFileSync(codeTrace, 'utf8').split('[bailout (').length - 1 : 0;
    assert.equal(bailouts, node.major >= 26 ? 0 : analysis.counters.deoptEvents, `${bailouts} bailouts in the code trace`);
    const missing = loadExpectedSites().filter((site) => !siteFound(site, analysis.deopts, DEOPTS_PROGRAM, node.major));
    assert.deepEqual(missing.map(describeSite), [], `seen: ${JSON.stringify(summarizeDeopts(analysis), null, 1)}`);
  });
}

// The default preset, as the editor and the CLI launch it: with a CPU profile running, deopts and
// optimizations come from the code trace (--trace-deopt-verbose --trace-opt), ordered but untimed.
// Whether V8 optimizes `area` on its own or only inlined into totalArea depends on timing (with
// concurrent recompilation, and on Node 20 even without): inlining is switched off, so area's own
// code is optimized and deopts on every run, even on a loaded machine.
const SHAPES_PROGRAM = join(__dirname, '..', 'fixtures', 'v8log', 'programs', 'shapes.js');
for (const node of NODES) {
  it(`real launch (${node.label}, default preset, stable deopts): summary.json has area's deopts per function, with reoptimized`, { timeout: 60_000 }, async () => {
    let stdout = '';
    let stderr = '';
    const run = await ProfileRun.start(
      {
        target: { kind: 'script', script: SHAPES_PROGRAM, args: [] },
        cwd: dir,
        node: node.path,
        preset: DEFAULT_PRESET,
        options: {
          capture: PRESETS[DEFAULT_PRESET].capture,
          samplingIntervalUs: 1000,
          semiSpaceMB: null,
          stableDeopts: true,
          extraFlags: ['--no-turbo-inlining', '--no-maglev-inlining'],
          allocSamplingBytes: DEFAULT_ALLOC_SAMPLING_BYTES,
          exactAllocSites: false,
        },
        runDir: join(dir, `run-${node.label.replace(/\W+/g, '-')}`),
        timeoutS: null,
      },
      { stdout: (text) => ((stdout += text), true), whenDrained: async () => undefined, stderr: (text) => void (stderr += text) },
    );
    const { summary, session, outcome } = await run.done;
    assert.equal(outcome, 'finished', stderr);
    // The preload switches --trace-deopt-verbose and --trace-opt on once each process has its own trace.
    assert.ok(session.launch.env.V8_LENS_CODE_TRACE_DIR && !session.launch.argv.includes('--trace-opt'), JSON.stringify(session.launch));
    // --trace-opt writes to the redirected code trace: nothing of it reaches the app's output.
    assert.match(stdout, /^total: -?\d+\n$/);
    const areaSites = summary.deopts.filter((d) => d.function === 'area');
    const area = summary.deoptFunctions?.find((f) => f.function === 'area');
    const seen = JSON.stringify({ deopts: summary.deopts, deoptFunctions: summary.deoptFunctions, warnings: summary.warnings }, null, 1);
    assert.ok(area && areaSites.length > 0, `no deopts of area: ${seen}`);
    assert.deepEqual([area.url, area.line, area.column], [SHAPES_PROGRAM, 4, 14], seen);
    assert.ok(area.reasons.some((r) => r.reason === 'wrong map'), seen);
    assert.equal(typeof area.reoptimized, 'boolean', seen);
    for (const d of areaSites) assert.deepEqual(d.functionStart, { url: SHAPES_PROGRAM, line: 4, column: 14 }, seen);
    // Every bailout and optimization the run's own code traces hold was read (the self-check), and
    // there were some: a trace that came out empty could not pass as "no deopts".
    const check = summary.selfCheck;
    assert.ok(check?.deopts && check.deopts.seen >= areaSites.length && check.deopts.read === check.deopts.seen, JSON.stringify(check));
    assert.ok(check?.optimizations && check.optimizations.seen > 0 && check.optimizations.read === check.optimizations.seen, JSON.stringify(check));
    // Functions that deopted are never also "optimized, never deoptimized".
    const deopted = new Set(summary.deoptFunctions!.map((f) => `${f.url}:${f.line}:${f.column}`));
    assert.ok(summary.optimizedFunctions!.every((f) => !deopted.has(`${f.url}:${f.line}:${f.column}`)), JSON.stringify(summary.optimizedFunctions));
  });
}

// V8 keeps only 127 bytes of --redirect-code-traces-to and silently writes a longer path cut short:
// a run folder deep in a project (here 200+ bytes, one folder name non-ASCII) once showed "no deopts".
it('real launch into a deep run folder (code-trace path over 127 bytes): the deopts are still found, the trace lands in the run folder', { timeout: 60_000 }, async () => {
  const runDir = join(dir, 'a deep project', 'données', 'x'.repeat(80), '.v8-lens', 'runs', '20261122-191418-Deopts_shapes');
  const run = await ProfileRun.start(
    {
      target: { kind: 'script', script: SHAPES_PROGRAM, args: [] },
      cwd: dir,
      node: process.execPath,
      preset: DEFAULT_PRESET,
      options: { capture: PRESETS[DEFAULT_PRESET].capture, samplingIntervalUs: 1000, semiSpaceMB: null, stableDeopts: true, extraFlags: ['--no-turbo-inlining'], allocSamplingBytes: DEFAULT_ALLOC_SAMPLING_BYTES, exactAllocSites: false },
      runDir,
      timeoutS: null,
    },
    { stdout: () => true, whenDrained: async () => undefined, stderr: () => undefined },
  );
  const { summary, session, layout, outcome } = await run.done;
  assert.equal(outcome, 'finished');
  const trace = join(layout.v8LogDir, `code-${session.pid}-0.asm`);
  assert.ok(Buffer.byteLength(trace) > 127, trace);
  // No code-trace path on the command line (no V8 flag of ours is there): the preload gives each isolate its own.
  assert.deepEqual(session.launch.argv.filter((a) => a.startsWith('--redirect-code-traces')), []);
  const staged = session.launch.env.V8_LENS_CODE_TRACE_DIR!;
  assert.ok(Buffer.byteLength(join(staged, `code-${session.pid}-0.asm`)) <= 127 && !staged.startsWith(runDir), `the preload was given a folder V8 keeps whole: ${staged}`);
  assert.equal(existsSync(staged), false, 'the staged traces were moved, and the folder removed');
  assert.match(readFileSync(trace, 'utf8'), /\[bailout \(kind: deopt-eager, reason: wrong map\)/);
  const seen = JSON.stringify({ deopts: summary.deopts, warnings: summary.warnings }, null, 1);
  assert.ok(summary.deopts.some((d) => d.function === 'area' && d.reason === 'wrong map'), seen);
});
