/**
 * The webviews' checks of what reaches them (src/shared/*Protocol.ts `parseTo…`): every message
 * the extension sends passes, with its fields as sent; anything else is dropped (null).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseToCompareWebview, type ToCompareWebview } from '../../../src/shared/compareProtocol';
import { DEFAULT_LAB_FORM } from '../../../src/shared/labForm';
import { parseToLab, type ToLab } from '../../../src/shared/labProtocol';
import { parseToReportWebview, type LiveAttachStatus, type ToReportWebview } from '../../../src/shared/reportProtocol';
import { SEMI_SPACE_FLAG } from '../../../src/shared/model/sweep';
import { ENV, SECTION8, config, run } from '../sweep/sweepFixtures';

const notObjects: unknown[] = [null, undefined, 'model', 42, true];

describe('parseToReportWebview', () => {
  const live: LiveAttachStatus = { pid: 123, elapsedSeconds: 4.2, gcEvents: 7, scavenges: 6, scavengesPerSecond: 1.5, heapUsedMB: null, state: 'profiling' };
  const model = { title: 't', summary: {} };

  it('passes what the report panel sends', () => {
    const sent: ToReportWebview[] = [
      { type: 'model', model: model as never },
      { type: 'status', text: 'Profiling…' },
      { type: 'live', model: model as never, live },
      { type: 'live', model: model as never, live: { ...live, pid: null, heapUsedMB: 12.5, state: 'saving' } },
    ];
    for (const m of sent) assert.deepEqual(parseToReportWebview(structuredClone(m)), m);
  });

  it('drops anything else', () => {
    for (const bad of [
      ...notObjects,
      {},
      { type: 'model' },
      { type: 'model', model: null },
      { type: 'model', model: 'x' },
      { type: 'status' },
      { type: 'status', text: 3 },
      { type: 'live', model },
      { type: 'live', live },
      { type: 'live', model, live: { ...live, state: 'other' } },
      { type: 'live', model, live: { ...live, gcEvents: '7' } },
      { type: 'live', model, live: { ...live, pid: undefined } },
      { type: 'openSource', url: 'x', line: 1, column: 1 },
    ]) {
      assert.equal(parseToReportWebview(bad), null, JSON.stringify(bad));
    }
  });

  it('keeps only the fields of the protocol', () => {
    const parsed = parseToReportWebview({ type: 'live', model, live: { ...live, extra: '<img>' }, extra: 1 });
    assert.deepEqual(parsed, { type: 'live', model, live });
    assert.deepEqual(parseToReportWebview({ type: 'status', text: 's', extra: 1 }), { type: 'status', text: 's' });
  });
});

describe('parseToCompareWebview', () => {
  it('passes what the compare panel sends and drops anything else', () => {
    const sent: ToCompareWebview[] = [{ type: 'model', model: { base: {}, other: {} } as never }, { type: 'status', text: 'Comparing…' }];
    for (const m of sent) assert.deepEqual(parseToCompareWebview(structuredClone(m)), m);
    for (const bad of [...notObjects, {}, { type: 'model' }, { type: 'model', model: null }, { type: 'status', text: null }, { type: 'swap' }]) {
      assert.equal(parseToCompareWebview(bad), null, JSON.stringify(bad));
    }
  });
});

describe('parseToLab', () => {
  const targets = [{ id: 'a', label: 'server.js', detail: '/ws/server.js' }];
  const finished = run(16, 0, 0, SECTION8[16]!);
  const result = { config: config([16, 32], 1), environment: ENV, results: [], warnings: [], status: 'finished' };

  it('passes every message the lab host sends', () => {
    const sent: ToLab[] = [
      { type: 'init', targets, form: { ...DEFAULT_LAB_FORM, targetId: 'a' }, result: null, running: false, trusted: true },
      { type: 'init', targets: [], form: DEFAULT_LAB_FORM, result: result as never, running: true, trusted: false },
      { type: 'targets', targets },
      { type: 'started', runs: 15, estimateSeconds: 270 },
      { type: 'progress', progress: { type: 'run-start', run: 0, of: 15, flag: SEMI_SPACE_FLAG, value: 16, semiSpaceMB: 16, round: 0 } },
      { type: 'progress', progress: { type: 'run-start', run: 1, of: 15, flag: 'max-old-space-size', value: 512, semiSpaceMB: null, round: 0 } },
      { type: 'progress', progress: { type: 'phase', run: 0, phase: 'waiting-ready' } },
      { type: 'progress', progress: { type: 'tick', run: 0, rps: 1234.5, scavenges: 3, elapsedSeconds: 2 } },
      { type: 'progress', progress: { type: 'run-end', run: finished } },
      { type: 'progress', progress: { type: 'run-end', run: { ...finished, status: 'invalid', reason: 'exited with code 1' } } },
      { type: 'progress', progress: { type: 'output', run: 0, stream: 'stderr', text: 'listening\n' } },
      { type: 'result', result: result as never, final: false },
      { type: 'error', message: 'rounds must be a whole number from 1 to 30' },
      { type: 'stopped' },
      { type: 'applyProposed', flag: SEMI_SPACE_FLAG, value: 64, where: 'launch configuration "server"' },
      { type: 'applied', message: 'Nothing written.' },
    ];
    for (const m of sent) assert.deepEqual(parseToLab(structuredClone(m)), m, m.type);
  });

  it('drops anything else', () => {
    const init = { type: 'init', targets, form: DEFAULT_LAB_FORM, result: null, running: false, trusted: true };
    for (const bad of [
      ...notObjects,
      {},
      { type: 'ready' },
      { ...init, targets: 'a' },
      { ...init, targets: [{ id: 'a', label: 'x' }] },
      { ...init, form: { ...DEFAULT_LAB_FORM, rounds: '3' } },
      { ...init, result: 'x' },
      { ...init, running: 'no' },
      { ...init, trusted: undefined },
      { type: 'started', runs: 15 },
      { type: 'progress', progress: null },
      { type: 'progress', progress: { type: 'run-start', run: 0, of: 15, flag: 1, value: 16, semiSpaceMB: 16, round: 0 } },
      { type: 'progress', progress: { type: 'phase', run: 0, phase: 'dancing' } },
      { type: 'progress', progress: { type: 'tick', run: 0, rps: '1', scavenges: 3, elapsedSeconds: 2 } },
      { type: 'progress', progress: { type: 'run-end', run: { ...finished, status: 'odd' } } },
      { type: 'progress', progress: { type: 'run-end', run: null } },
      { type: 'progress', progress: { type: 'output', run: 0, stream: 'stdin', text: '' } },
      { type: 'result', result: null, final: true },
      { type: 'result', result, final: 'yes' },
      { type: 'error' },
      { type: 'applyProposed', flag: SEMI_SPACE_FLAG, value: '64', where: 'x' },
      { type: 'applied', message: 1 },
    ]) {
      assert.equal(parseToLab(bad), null, JSON.stringify(bad));
    }
  });
});
