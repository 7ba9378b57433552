/**
 * Deopts from every source of a run: a process's V8 log (times, silent while profiling) and its code
 * trace (complete, no times). An express API's one late log entry once hid its whole trace (6
 * bailouts became 1 "(unknown)" row); here both sources count, and an event in both counts once.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { listCodeTraces, listV8Logs } from '../../../src/core/run/runArtifacts';
import { readRunDeopts } from '../../../src/core/run/runDeopts';
import { runLayout } from '../../../src/core/run/runLayout';
import type { RunProcess } from '../../../src/core/run/processTable';
import { summarizeDeoptAnalysis } from '../../../src/core/v8log/deoptSummary';
import { tempDir } from '../../../scripts/tempDirs';

const root = tempDir('v8lens-run-deopts-');
after(() => rmSync(root, { recursive: true, force: true }));

const fn = (name: string, sfi: string) => `0x1 <JSFunction ${name} (sfi = ${sfi})>`;
const bailout = (kind: string, reason: string, name: string, sfi: string, at: string, frame = name) => [
  `[bailout (kind: ${kind}, reason: ${reason}): begin. deoptimizing ${fn(name, sfi)}, 0x2 <Code TURBOFAN>, opt id 1, bytecode offset 0, deopt exit 0]`,
  `            ;;; deoptimize at ${at}`,
  `  reading input frame ${frame} => bytecode_offset=0, args=2, height=1, retval=0(#0); inputs:`,
  '[bailout end. took 0.01 ms]',
];

function runFolder(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'v8'), { recursive: true });
  return dir;
}

function appProcess(pid: number, logs: RunProcess['logs'] = []): RunProcess {
  return { id: String(pid), pid, threadId: 0, parentPid: null, role: 'main', command: 'node app.js', record: null, isApp: true, profile: null, isolate: '0xa', logs, codeTrace: null };
}

describe('readRunDeopts', () => {
  it('reads the code trace even when the log has a deopt; one event in both counts once, with the log time', async () => {
    const dir = runFolder('both');
    const layout = runLayout(dir);
    writeFileSync(join(dir, 'v8', 'code-7-0.asm'), [
      ...bailout('deopt-eager', 'wrong map', 'orderTotal', '0xaa', '</app/lib/pricing.js:7:29> inlined at </app/app.js:12:20>', 'itemTotal'),
      ...bailout('deopt-eager', 'wrong map', 'buildOrders', '0xbb', '</app/app.js:46:5>'),
      // At exit, after the profile was written: V8 logged this one too.
      ...bailout('dependency-change', 'code dependencies', 'handler', '0xcc', '<unknown>'),
      // V8 Lens's own preload is not the app.
      ...bailout('deopt-eager', 'Insufficient type feedback for call', 'redirectCodeTrace', '0xdd', '</x/dist/preload.js:72:45>'),
      '',
    ].join('\n'));
    writeFileSync(join(dir, 'v8', 'isolate-0xa-7-v8.log'), [
      'v8-version,11,3,244,8,-node.38,0',
      'code-creation,JS,13,900,0x7f0000000100,184,handler /app/app.js:30:3,0x673f904a798,*',
      'code-deopt,950,256,0x7f0000000100,-1,135,dependency-change,<unknown>,code dependencies',
      '',
    ].join('\n'));
    const logs = await listV8Logs(layout);
    const found = await readRunDeopts({
      processes: [appProcess(7, logs)],
      logs,
      codeTraces: await listCodeTraces(layout),
      codeTraceAsked: true,
      profiledFunctions: [{ name: 'buildOrders', url: 'file:///app/app.js', line: 40, column: 21, selfMs: 1, totalMs: 2 }],
      window: null,
      preloadPath: '/x/dist/preload.js',
    });
    const { deopts } = summarizeDeoptAnalysis(found.analysis);
    assert.deepEqual(
      deopts.map((d) => [d.reason, d.function, d.optimizedFunction, d.line, d.count, d.sources, d.processes, d.firstMs]),
      [
        // The log's time is kept (its µs are ms 0.95); the trace names the function.
        ['code dependencies', 'handler', 'handler', 0, 1, ['v8-log', 'code-trace'], ['7'], 0.95],
        ['wrong map', 'buildOrders', 'buildOrders', 46, 1, ['code-trace'], ['7'], null],
        ['wrong map', 'itemTotal', 'orderTotal', 7, 1, ['code-trace'], ['7'], null],
      ],
    );
    assert.equal(found.coverage, 'collected');
    assert.equal(found.countByProcess.get('7'), 3);
  });

  it('lazy deopts without a position keep their functions apart (one row each, never "(unknown)")', async () => {
    const dir = runFolder('lazy');
    const layout = runLayout(dir);
    const lines: string[] = [];
    for (let i = 0; i < 104; i++) lines.push(...bailout('deopt-lazy', '(unknown)', i < 2 ? 'parseBinaryExpressionOrHigher' : `parse${i % 5}`, `0x${100 + (i % 5)}`, '<unknown>'));
    writeFileSync(join(dir, 'v8', 'code-8-0.asm'), `${lines.join('\n')}\n`);
    const found = await readRunDeopts({ processes: [appProcess(8)], logs: [], codeTraces: await listCodeTraces(layout), codeTraceAsked: true, profiledFunctions: [], window: null, preloadPath: null });
    const { deopts } = summarizeDeoptAnalysis(found.analysis);
    assert.equal(deopts.reduce((n, d) => n + d.count, 0), 104);
    assert.ok(deopts.every((d) => d.function !== '(unknown)' && d.function !== '(code not logged)'), JSON.stringify(deopts.map((d) => d.function)));
    assert.equal(deopts.find((d) => d.function === 'parseBinaryExpressionOrHigher')?.count, 2);
    assert.equal(new Set(deopts.map((d) => d.function)).size, deopts.length);
  });

  it('under load: a traced deopt is placed before, in or after the window by the trace size at its marks', async () => {
    const dir = runFolder('window');
    const layout = runLayout(dir);
    const warm = bailout('deopt-eager', 'wrong map', 'warm', '0x1', '</app/a.js:1:1>').join('\n') + '\n';
    const load = bailout('deopt-eager', 'wrong map', 'hot', '0x2', '</app/a.js:2:1>').join('\n') + '\n';
    const exit = bailout('dependency-change', 'code dependencies', 'close', '0x3', '<unknown>').join('\n') + '\n';
    writeFileSync(join(dir, 'v8', 'code-9-0.asm'), warm + load + exit);
    const startBytes = Buffer.byteLength(warm);
    const endBytes = startBytes + Buffer.byteLength(load);
    const found = await readRunDeopts({
      processes: [appProcess(9)],
      logs: [],
      codeTraces: await listCodeTraces(layout),
      codeTraceAsked: true,
      profiledFunctions: [],
      window: { startEpochMs: 0, endEpochMs: 1, traceBytes: { start: { 'code-9-0.asm': startBytes }, end: { 'code-9-0.asm': endBytes } } },
      preloadPath: null,
    });
    const { deopts } = summarizeDeoptAnalysis(found.analysis);
    const by = (name: string) => deopts.find((d) => d.function === name)!;
    assert.deepEqual([by('warm').beforeWindow, by('warm').afterWindow], [1, 0]);
    assert.deepEqual([by('hot').beforeWindow, by('hot').afterWindow], [0, 0]);
    assert.deepEqual([by('close').beforeWindow, by('close').afterWindow], [0, 1]);
  });

  it('a process whose deopts were not read is "partial", said once, never counted as 0', async () => {
    const dir = runFolder('partial');
    const layout = runLayout(dir);
    writeFileSync(join(dir, 'v8', 'code-10-0.asm'), '');
    const child: RunProcess = { ...appProcess(11), id: '11', isApp: false, role: 'child' };
    const found = await readRunDeopts({ processes: [appProcess(10), child], logs: [], codeTraces: await listCodeTraces(layout), codeTraceAsked: true, profiledFunctions: [], window: null, preloadPath: null });
    assert.equal(found.coverage, 'partial');
    assert.equal(found.countByProcess.get('10'), 0);
    assert.equal(found.countByProcess.has('11'), false);
    assert.deepEqual(found.warnings, ['deopts: not collected for child 11 (no V8 log or code trace of theirs was found)']);
  });
});
