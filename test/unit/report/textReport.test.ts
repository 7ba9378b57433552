/**
 * The CLI's text report says "not collected" (with the reason, once) when nobody looked for deopts,
 * and prints every warning exactly once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTextReport } from '../../../src/core/report/textReport';
import { emptySummary, type DeoptSummaryEntry, type Summary } from '../../../src/shared/model/summary';
import { deoptCountText, deoptEventsText } from '../../../src/shared/deoptText';

const NPM_DEOPTS = 'deopts need a direct launch: Node refuses --log-deopt in NODE_OPTIONS, so no deopt log was taken';
const NPM_GC = 'GC events before the preload ran (Node start-up) are not in the trace';

const run = (parts: Partial<Summary>) => emptySummary({ kind: 'run', path: '/runs/x' }, parts);
const deopt = (count: number): DeoptSummaryEntry => ({
  url: '/app/a.js', line: 3, column: 5, function: 'add', optimizedFunction: 'add', kind: 'deopt-eager', reason: 'not a Smi', count, inlinedAt: [], firstMs: null, lastMs: null, tier: 'TurboFan', functionStart: null,
});
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('text report: deopts', () => {
  it('an npm-script run: "not collected" with its reason, and each warning once', () => {
    const text = formatTextReport(run({ deoptCoverage: 'not-collected', warnings: [NPM_DEOPTS, NPM_GC] }), { cwd: '/app' });
    assert.match(text, /^Deopts: not collected \(deopts need a direct launch: Node refuses --log-deopt in NODE_OPTIONS, so no deopt log was taken\)$/m);
    assert.equal(occurrences(text, NPM_DEOPTS), 1);
    assert.equal(occurrences(text, NPM_GC), 1);
    assert.match(text, /^note: GC events before the preload ran/m);
    assert.doesNotMatch(text, /0 deopts|none recorded/);
  });

  it('a preset without deopts: "not collected", with no reason to give', () => {
    assert.match(formatTextReport(run({ deoptCoverage: 'not-collected' }), { cwd: '/' }), /^Deopts: not collected$/m);
  });

  it('collected: none, some, or partial', () => {
    assert.match(formatTextReport(run({ deoptCoverage: 'collected' }), { cwd: '/' }), /^Deopts: none recorded$/m);
    assert.match(formatTextReport(run({ deoptCoverage: 'collected', deopts: [deopt(2), deopt(1)] }), { cwd: '/' }), /^Deopts: 2 site\(s\), 3 event\(s\)$/m);
    const partial = formatTextReport(run({ deoptCoverage: 'partial', deopts: [deopt(2)], warnings: ['deopts: the worker (pid 9) wrote no log'] }), { cwd: '/' });
    assert.match(partial, /^Deopts: 1 site\(s\), 2 event\(s\) \(some processes not collected\)$/m);
    assert.match(partial, /^note: deopts: the worker \(pid 9\) wrote no log$/m, 'with some collected, the reason stays a note');
  });
});

describe('deopt count words', () => {
  it('never "0 deopts" when nobody looked', () => {
    assert.equal(deoptCountText({ deopts: [], deoptCoverage: 'not-collected' }), 'deopts: not collected');
    assert.equal(deoptCountText({ deopts: [], deoptCoverage: 'collected' }), '0 deopts');
    assert.equal(deoptEventsText(1, 'collected'), '1 deopt');
    assert.equal(deoptEventsText(5, 'partial'), '5 deopts (some processes not collected)');
    assert.equal(deoptEventsText(0, 'not-collected'), 'deopts: not collected');
  });
});

describe('fmtBytes', () => {
  it('1024-based units with a few significant digits', async () => {
    const { fmtBytes } = await import('../../../src/core/report/textReport');
    assert.deepEqual([0, 512, 2048, 39_000, 1.5 * 1024 ** 2, 150 * 1024 ** 2, 8.44 * 1024 ** 3].map(fmtBytes), ['0 B', '512 B', '2.00 KB', '38.1 KB', '1.50 MB', '150 MB', '8.44 GB']);
  });
});

describe('text report: the self-check', () => {
  const gcSummary = (eventCount: number) => ({
    byType: { Scavenge: { count: eventCount, totalMs: 10, meanMs: 1, p95Ms: 1, maxMs: 1 } },
    totalPauseMs: 10, incrementalMarkingMs: 0, wallShare: 0.1, wallMs: 100, semiSpaceMB: null, semiSpaceRequestedMB: null,
    eventCount, byReason: {}, unparsedLines: 32, isolate: { pid: 1, isolate: '0x1', eventCount, totalPauseMs: 10 }, otherIsolates: [],
  });

  it('a gap comes first as a WARNING, and the GC line says how many could not be read', () => {
    const text = formatTextReport(run({ gc: gcSummary(9), deoptCoverage: 'collected', selfCheck: { gcLines: { seen: 41, read: 9 } } }), { cwd: '/' });
    assert.equal(text.split('\n')[0], 'WARNING: V8 printed 41 GC events, V8 Lens read 9: this Node’s trace format is not fully understood');
    assert.match(text, /^GC \(pid 1\): 9 events \(of 41 V8 printed: 32 could not be read\), 10\.0 ms paused/m);
  });

  it('deopts V8 traced but could not read are never "none recorded"', () => {
    const lost = formatTextReport(run({ deoptCoverage: 'collected', selfCheck: { deopts: { seen: 5, read: 0 } } }), { cwd: '/' });
    assert.doesNotMatch(lost, /none recorded/);
    assert.match(lost, /^Deopts: V8 traced 5, none could be read$/m);
    assert.match(lost, /^WARNING: V8 traced 5 deopts, V8 Lens read 0/m);
    const partial = formatTextReport(run({ deoptCoverage: 'partial', deopts: [deopt(2)], selfCheck: { deopts: { seen: 5, read: 2 } } }), { cwd: '/' });
    assert.match(partial, /^Deopts: 1 site\(s\), 2 event\(s\) \(incomplete: V8 traced more than V8 Lens could read\)$/m);
  });

  it('no warning when every count matches', () => {
    const text = formatTextReport(run({ gc: gcSummary(9), deoptCoverage: 'collected', selfCheck: { gcLines: { seen: 9, read: 9 }, deopts: { seen: 0, read: 0 } } }), { cwd: '/' });
    assert.doesNotMatch(text, /WARNING|could not be read/);
  });
});
