/**
 * attachAndProfile's conversation with a target, against a fake inspector (a `ws` server): the
 * order of commands, what a debug-session proxy changes, a target that is not Node, and one that
 * exits while attached.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { attachAndProfile, type AttachedGcEvent } from '../../../src/core/attach/attachRun';
import { UserError } from '../../../src/core/util/errors';
import { tempDir } from '../../../scripts/tempDirs';

const PROFILE = JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'cpu', 'node20-work.cpuprofile'), 'utf8'));
/** The fake target's performance clock when the observer starts watching, and when profiling stops. */
const WINDOW_START = 5;
const WINDOW_END = 1000;
const INFO = { pid: 4242, execPath: '/usr/bin/node', execArgv: ['--inspect'], argv: ['/usr/bin/node', '/srv/app.js', '--port', '80'], version: 'v22.1.0', v8: '12.4', cwd: '/srv' };

interface FakeOptions {
  info?: unknown;
  /** Sent right after the observer is installed. */
  afterInstall?: (emit: (method: string, params: object) => void) => void;
  exitCode?: number;
  /** The target starts to exit as soon as it is asked to tell us: before the run has begun. */
  exitWhenAsked?: boolean;
}

async function fakeInspector(options: FakeOptions = {}): Promise<{ url: string; methods: string[]; close(): void }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => server.once('listening', r));
  const methods: string[] = [];
  server.on('connection', (socket) => {
    const emit = (method: string, params: object) => socket.send(JSON.stringify({ method, params }));
    let binding = '';
    socket.on('message', (data) => {
      const { id, method, params } = JSON.parse(data.toString());
      methods.push(method === 'Runtime.evaluate' && params.expression === 'performance.now()' ? `${method} performance.now()` : method);
      let result: object = {};
      if (method === 'Runtime.addBinding') binding = params.name;
      if (method === 'Runtime.evaluate') {
        const expr: string = params.expression;
        if (expr.includes('process.versions')) result = { result: { type: 'object', value: 'info' in options ? options.info : INFO } };
        else if (expr.includes('new PerformanceObserver')) {
          result = { result: { type: 'object', value: { ok: true, since: WINDOW_START } } };
          // The first began before the observer watched (the target's own GC observer had it pending).
          for (const [t, kind] of [[4, 1], [10, 1], [20, 4]] as const) {
            emit('Runtime.bindingCalled', { name: binding, executionContextId: 1, payload: JSON.stringify({ s: t - 0.5, t, kind, flags: 0, duration: 0.5, heapUsed: 5 * 2 ** 20, heapTotal: 8 * 2 ** 20 }) });
          }
          emit('Runtime.bindingCalled', { name: 'someone-else', executionContextId: 1, payload: '{}' });
          setTimeout(() => options.afterInstall?.(emit), 20);
        } else if (expr.includes('takeRecords')) result = { result: { type: 'object', value: { ok: true, flushed: 0, left: [] } } };
        else if (expr === 'process.exitCode') result = { result: { type: 'number', value: options.exitCode } };
        else if (expr === 'performance.now()') result = { result: { type: 'number', value: WINDOW_END } };
      }
      if (method === 'Profiler.stop') result = { profile: PROFILE };
      if (method === 'NodeRuntime.notifyWhenWaitingForDisconnect' && options.exitWhenAsked) emit('NodeRuntime.waitingForDisconnect', {});
      socket.send(JSON.stringify({ id, result }));
    });
  });
  const { port } = server.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}/fake`, methods, close: () => server.close() };
}

const outDir = () => join(tempDir('v8-lens-attach-'), 'run');

describe('attachAndProfile (fake inspector)', () => {
  it('through a debug-session proxy: subscribes to events, leaves the shared domains enabled, saves everything', async () => {
    const fake = await fakeInspector();
    const out = outDir();
    const events: AttachedGcEvent[] = [];
    const handle = await attachAndProfile(fake.url, { outDir: out, durationMs: null, samplingIntervalUs: 500, toolVersion: 'test', viaDebugProxy: true, onGcEvent: (e) => events.push(e) });
    assert.equal(handle.pid, 4242);
    while (events.length < 3) await new Promise((r) => setTimeout(r, 10));
    handle.stop();
    const result = await handle.done;
    fake.close();
    assert.deepEqual(
      { status: result.status, reason: result.reason, gcEvents: result.gcEvents, openedInspector: result.openedInspector },
      { status: 'finished', reason: null, gcEvents: 2, openedInspector: false },
    );
    assert.ok(result.profile && existsSync(result.profile) && /CPU\.\d{8}\.\d{6}\.4242\.0\.001\.cpuprofile$/.test(result.profile));
    assert.deepEqual(events.map((e) => [e.type, e.startMs, e.timeMs, e.heapUsedMB]), [['Scavenge', 3.5, 4, 5], ['Scavenge', 9.5, 10, 5], ['Mark-Compact', 19.5, 20, 5]]);
    assert.deepEqual(handle.window, { startMs: WINDOW_START, endMs: WINDOW_END }, 'the window ends on the target clock, asked before Profiler.stop');
    assert.ok(fake.methods.indexOf('Runtime.evaluate performance.now()') < fake.methods.indexOf('Profiler.stop'), fake.methods.join(' '));
    const m = fake.methods;
    assert.ok(m.indexOf('JsDebug.subscribe') < m.indexOf('Runtime.addBinding'));
    assert.ok(m.indexOf('Profiler.setSamplingInterval') < m.indexOf('Profiler.start'));
    assert.ok(m.includes('Runtime.removeBinding'));
    assert.ok(!m.includes('NodeRuntime.notifyWhenWaitingForDisconnect') && !m.includes('Profiler.disable'), m.join(' '));
    const session = JSON.parse(readFileSync(join(out, 'session.json'), 'utf8'));
    assert.equal(session.mode, 'attach');
    assert.equal(session.status, 'finished');
    assert.deepEqual(session.target, { kind: 'script', program: '/srv/app.js', args: ['--port', '80'], cwd: '/srv' });
    assert.equal(session.attach.commandLine, '/usr/bin/node --inspect /srv/app.js --port 80');
    assert.equal(session.attach.inspector, new URL(fake.url).host, 'the target id is not kept');
    assert.equal(session.attach.viaDebugProxy, true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.equal(summary.gc.eventCount, 2, 'the event begun before the window is not counted');
    assert.equal(summary.gc.wallMs, WINDOW_END - WINDOW_START);
    assert.deepEqual(session.attach.window, { startMs: WINDOW_START, endMs: WINDOW_END });
    assert.equal(session.attach.gcEvents, 3, 'the session keeps what the observer reported');
    assert.ok(summary.cpu);
  });

  it('a target that starts to exit while the run is still being set up is seen exiting, not waited for', async () => {
    const fake = await fakeInspector({ exitWhenAsked: true, exitCode: 0 });
    const out = outDir();
    const started = Date.now();
    const handle = await attachAndProfile(fake.url, { outDir: out, durationMs: 60_000, samplingIntervalUs: 1000, toolVersion: 'test' });
    const result = await handle.done;
    fake.close();
    assert.equal(result.status, 'target-exited');
    assert.match(result.reason!, /^the target exited with code 0 after/);
    assert.ok(Date.now() - started < 30_000, 'it did not wait for the duration');
  });

  it('a direct connection asks to be told when the target exits, and keeps the profile when it does', async () => {
    const fake = await fakeInspector({ afterInstall: (emit) => emit('NodeRuntime.waitingForDisconnect', {}), exitCode: 3 });
    const out = outDir();
    const handle = await attachAndProfile(fake.url, { outDir: out, durationMs: 60_000, samplingIntervalUs: 1000, toolVersion: 'test' });
    const result = await handle.done;
    fake.close();
    assert.equal(result.status, 'target-exited');
    assert.match(result.reason!, /^the target exited with code 3 after \d+\.\d s of profiling/);
    assert.ok(result.profile && existsSync(result.profile));
    assert.ok(fake.methods.includes('NodeRuntime.notifyWhenWaitingForDisconnect'));
    assert.equal(JSON.parse(readFileSync(join(out, 'session.json'), 'utf8')).status, 'target-exited');
  });

  it('a target without Node\'s process (a browser page) is refused, and nothing is written', async () => {
    const fake = await fakeInspector({ info: null });
    const out = outDir();
    await assert.rejects(
      attachAndProfile(fake.url, { outDir: out, durationMs: 1000, samplingIntervalUs: 1000, toolVersion: 'test' }),
      (err: unknown) => err instanceof UserError && /is not a Node inspector: the target has no Node 'process'/.test(err.message),
    );
    fake.close();
    assert.equal(existsSync(out), false);
    assert.ok(!fake.methods.includes('Profiler.start'));
  });

  it('refuses a run folder that is not empty, before connecting', async () => {
    await assert.rejects(
      attachAndProfile('ws://127.0.0.1:1/never', { outDir: join(__dirname), durationMs: 1000, samplingIntervalUs: 1000, toolVersion: 'test' }),
      /already exists and is not empty; choose another --out/,
    );
  });
});
