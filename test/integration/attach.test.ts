/**
 * `v8-lens attach` against real, running Node processes: a CPU profile whose hottest function is the
 * fixture's burner, GC events that match the target's own --trace-gc in the same window, nothing
 * left behind in the target, an inspector opened with SIGUSR1, clean errors, and a target that ends
 * mid-profile.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { Agent, createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import WebSocket from 'ws';
import type { AttachedGcEvent } from '../../src/core/attach/attachRun';
import { GLOBAL_PREFIX } from '../../src/core/attach/gcObserverSource';
import { listLocalNodeProcesses } from '../../src/core/attach/localNodeProcesses';
import { buildReportModel } from '../../src/core/report/reportModel';
import type { FlameNode } from '../../src/shared/model/reportModel';
import { DEFAULT_ALLOC_SAMPLING_BYTES } from '../../src/core/flags/presets';
import { NODES, PROGRAMS, collect, processAlive, readSession, readSummary, runCli, startCli, tempDir, waitForOutput } from './cliHarness';

const SERVER = join(PROGRAMS, 'attach-server.js');
const BURNER = 'burnCpuInAttachFixture';
/** --trace-gc lines of the collections the observer also sees (incremental-marking starts have none). */
const TRACE_GC_LINE = /^\[\d+:0x[0-9a-f]+\]\s+\d+ ms: (Scavenge|Mark-Compact|Minor Mark-Sweep|Minor Mark-Compact)\b/;

interface Fixture {
  child: ChildProcess;
  pid: number;
  httpPort: number;
  inspectorUrl: string | null;
  /** --trace-gc lines with the time they arrived here. */
  gcLines: { atMs: number; line: string }[];
  stderr: () => string;
}

const started: ChildProcess[] = [];
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function startFixture(node: string, nodeArgs: string[], env: NodeJS.ProcessEnv = {}): Promise<Fixture> {
  const child = spawn(node, [...nodeArgs, SERVER], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const gcLines: Fixture['gcLines'] = [];
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const listening = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the fixture did not start; stderr: ${stderr}`)), 20_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (TRACE_GC_LINE.test(line)) gcLines.push({ atMs: Date.now(), line });
      const m = /^listening on (\d+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  let inspectorUrl: string | null = null;
  if (nodeArgs.some((a) => a.startsWith('--inspect='))) {
    const [, url] = await waitForOutput(child, /Debugger listening on (ws:\/\/\S+)/);
    inspectorUrl = url!;
  }
  return { child, pid: child.pid!, httpPort: await listening, inspectorUrl, gcLines, stderr: () => stderr };
}

/** Requests as fast as the server answers, two at a time, until stopped; resolves with the count. */
function loadLoop(port: number): { stop(): Promise<number> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  let count = 0;
  let stopped = false;
  const loops: Promise<void>[] = [];
  const one = () =>
    new Promise<void>((resolve) => {
      get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
        res.resume();
        res.on('end', () => {
          count++;
          resolve();
        });
      }).on('error', () => setTimeout(resolve, 50));
    });
  for (let i = 0; i < 2; i++) {
    loops.push(
      (async () => {
        while (!stopped) await one();
      })(),
    );
  }
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
      return count;
    },
  };
}

function httpAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    get({ host: '127.0.0.1', port, path: '/' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    }).on('error', () => resolve(false));
  });
}

/** A short, independent CDP connection (plain `ws`, not V8 Lens's client) for checks. */
async function withCdp<T>(url: string, fn: (send: (method: string, params?: object) => Promise<any>) => Promise<T>): Promise<T> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let id = 0;
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(new Error(JSON.stringify(m.error)));
    else p.resolve(m.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<any>((resolve, reject) => {
      const n = ++id;
      pending.set(n, { resolve, reject });
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  try {
    return await fn(send);
  } finally {
    ws.close();
    await new Promise((r) => ws.once('close', r));
  }
}

/**
 * Whether V8's sampling heap profiler runs in the target, asked from a fresh session of our own: the
 * profiler is the isolate's, so another session's sampler shows, and V8 answers "not started" when
 * none runs.
 */
async function heapSamplerRunning(url: string): Promise<boolean> {
  return withCdp(url, async (send) =>
    send('HeapProfiler.getSamplingProfile').then(
      () => true,
      (err: Error) => {
        assert.match(err.message, /not started/i);
        return false;
      },
    ),
  );
}

/** What V8 Lens could have left in the target: globals with its prefix, and live PerformanceObservers. */
async function leftovers(url: string): Promise<{ globals: string[]; observers: number }> {
  return withCdp(url, async (send) => {
    const globals = await send('Runtime.evaluate', {
      expression: "Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__v8lens'))",
      returnByValue: true,
    });
    const proto = await send('Runtime.evaluate', {
      expression: "(typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('perf_hooks') : require('perf_hooks')).PerformanceObserver.prototype",
      includeCommandLineAPI: true,
      objectGroup: 'check',
    });
    // queryObjects collects garbage first, so a disconnected, unreferenced observer is not counted.
    const found = await send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId, objectGroup: 'check' });
    const count = await send('Runtime.callFunctionOn', { objectId: found.objects.objectId, functionDeclaration: 'function () { return this.length; }', returnByValue: true });
    await send('Runtime.releaseObjectGroup', { objectGroup: 'check' });
    return { globals: globals.result.value as string[], observers: count.result.value as number };
  });
}

function readGcEvents(runDir: string): AttachedGcEvent[] {
  return readFileSync(join(runDir, 'gc-events.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as AttachedGcEvent);
}

/** Our own messages start with "v8-lens:"; a stack trace would show "    at ". */
function assertCleanError(stderr: string, pattern: RegExp): void {
  const ours = stderr.split('\n').filter((l) => l.startsWith('v8-lens:'));
  assert.equal(ours.length, 1, `expected one v8-lens line, got: ${stderr}`);
  assert.match(ours[0]!, pattern);
  assert.doesNotMatch(stderr, /^\s+at .+:\d+:\d+\)?$/m, 'a stack trace reached the user');
}

describe('attach: profile a running server and leave nothing behind', () => {
  for (const node of NODES) {
    it(`${node.label}: hottest function, GC count matching --trace-gc, target untouched afterwards`, { timeout: 90_000 }, async () => {
      const fixture = await startFixture(node.path, ['--inspect=127.0.0.1:0', '--trace-gc']);
      const inspector = new URL(fixture.inspectorUrl!).host;
      const before = await leftovers(fixture.inspectorUrl!);

      const out = join(tempDir(), 'run');
      const cli = startCli(['attach', inspector, '--duration', '3', '--out', out]);
      const done = collect(cli, 60_000);
      await waitForOutput(cli, /attached to pid \d+/);
      const windowStart = Date.now();
      // The load starts once profiling runs: V8 records where functions were inlined only for code
      // it optimizes while a profiler runs (code optimized before shows inlined time as its caller's).
      const load = loadLoop(fixture.httpPort);
      // While attached, the check below does see what V8 Lens installed (so its "nothing left" means something).
      await new Promise((r) => setTimeout(r, 1000));
      const during = await leftovers(fixture.inspectorUrl!);
      assert.equal(during.globals.length, 2, `globals while attached: ${during.globals.join(', ')}`);
      assert.equal(during.observers, before.observers + 1);
      assert.equal(await heapSamplerRunning(fixture.inspectorUrl!), true, 'allocations are sampled while attached');
      const r = await done;
      const windowEnd = Date.now();
      const requests = await load.stop();
      assert.equal(r.code, 0, r.stderr);
      assert.ok(requests > 100, `the load got ${requests} answers`);

      // The CPU profile: the burner is the hottest JS function by self time.
      const summary = readSummary(out);
      const hottest = summary.cpu!.functions.find((f) => !f.name.startsWith('('));
      assert.equal(hottest?.name, BURNER, `top functions: ${summary.cpu!.functions.slice(0, 5).map((f) => f.name).join(', ')}`);
      assert.ok(summary.cpu!.durationMs > 2500 && summary.cpu!.durationMs < 6000, `profile covers ${summary.cpu!.durationMs} ms`);
      assert.equal(readdirSync(join(out, 'cpu')).filter((f) => f.endsWith('.cpuprofile')).length, 1);
      assert.match(r.stdout, new RegExp(`${BURNER}`), 'the text summary is printed like profile prints it');

      // GC: the observer saw what --trace-gc printed in the same window.
      const observed = readGcEvents(out).filter((e) => e.type !== 'Incremental marking' && e.type !== 'Weak callbacks').length;
      const traced = fixture.gcLines.filter((l) => l.atMs >= windowStart && l.atMs <= windowEnd).length;
      const tolerance = Math.max(3, Math.ceil(traced * 0.1));
      assert.ok(traced > 10, `the fixture printed ${traced} GC lines in the window`);
      assert.ok(Math.abs(observed - traced) <= tolerance, `observed ${observed} GC events, --trace-gc printed ${traced} (tolerance ${tolerance})`);
      console.log(`# ${node.label}: observed ${observed} GC events, --trace-gc printed ${traced} in the window; ${requests} requests`);

      const session = readSession(out);
      assert.equal(session.mode, 'attach');
      assert.equal(session.status, 'finished');
      assert.equal(session.pid, fixture.pid);
      assert.equal(session.attach?.openedInspector, false);
      assert.match(session.attach?.commandLine ?? '', /attach-server\.js/);
      const window = session.attach!.window!;
      assert.equal(summary.gc?.eventCount, readGcEvents(out).filter((e) => e.startMs! >= window.startMs && e.startMs! < window.endMs).length);
      assert.ok(summary.warnings.includes('deopts are not available when attaching: V8 logs them only when enabled at start-up'));

      // Detached: the target keeps running and answering, with no binding, global or observer left.
      assert.equal(processAlive(fixture.pid), true);
      assert.equal(await httpAnswers(fixture.httpPort), true);
      const afterwards = await leftovers(fixture.inspectorUrl!);
      assert.deepEqual(afterwards.globals, []);
      assert.equal(afterwards.observers, before.observers, 'the GC observer was disconnected and dropped');
      assert.equal(await heapSamplerRunning(fixture.inspectorUrl!), false, 'the allocation sampler was removed on detach');

      // Allocations over CDP, garbage included: the fixture's allocate() makes most of the bytes.
      const alloc = summary.alloc;
      assert.ok(alloc, summary.warnings.join('\n'));
      assert.deepEqual(readdirSync(join(out, 'heap')), [`${fixture.pid}.heapprofile`]);
      const top = alloc.functions.find((f) => f.name === 'allocate');
      assert.ok(top && top.share > 0.3 && top.url.endsWith('attach-server.js') && top.line === 21, JSON.stringify(alloc.functions.slice(0, 4)));
      assert.ok(alloc.bytesPerSecond !== null && alloc.bytesPerSecond > 0);
      assert.equal(alloc.gcLink, null, 'the observer\'s GC events have no heap sizes to check the bytes against: not collected');
      assert.equal(session.flags.capture.alloc, true);
      assert.equal(session.attach?.allocations?.samplingIntervalBytes, DEFAULT_ALLOC_SAMPLING_BYTES);
      assert.match(r.stdout, /^Allocations: .* sampled every 2\.00 MB, garbage included/m);
      // The report's Allocations tab: the same heap profile as a flame graph in bytes.
      const report = await buildReportModel(out);
      const names: string[] = [];
      const walk = (n: FlameNode) => (names.push(n.name), n.children.forEach(walk));
      walk(report.allocFlame!);
      assert.ok(names.includes('allocate'), `allocation flame graph frames: ${names.slice(0, 12).join(', ')}`);
      fixture.child.kill('SIGKILL');
    });
  }
});

describe('attach: allocations off', () => {
  it('--no-alloc samples none, and says "not collected"', { timeout: 60_000 }, async () => {
    const fixture = await startFixture('node', ['--inspect=127.0.0.1:0']);
    const out = join(tempDir(), 'run');
    const r = await runCli(['attach', new URL(fixture.inspectorUrl!).host, '--duration', '1', '--no-alloc', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(join(out, 'heap')), false);
    assert.equal(readSummary(out).alloc, null);
    assert.match(r.stdout, /^Allocations: not collected/m);
    assert.equal(readSession(out).flags.capture.alloc, false);
    assert.equal(await heapSamplerRunning(fixture.inspectorUrl!), false);
    fixture.child.kill('SIGKILL');
  });
});

describe('attach: the GC figures cover the attached window only', () => {
  for (const node of NODES) {
    it(`${node.label}: a target watching its own GC: shares over the window (not the uptime), nothing begun before it counted`, { timeout: 60_000 }, async () => {
      // A small new space, so every burst of the fixture scavenges (Node 24's default is 64 MB).
      const child = spawn(node.path, ['--inspect=127.0.0.1:0', '--max-semi-space-size=1', join(PROGRAMS, 'attach-own-gc-observer.js')], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, OBSERVER_GLOBAL_PREFIX: GLOBAL_PREFIX },
      });
      started.push(child);
      let childOut = '';
      child.stdout!.on('data', (d: Buffer) => (childOut += d.toString('utf8')));
      const [, url] = await waitForOutput(child, /Debugger listening on (ws:\/\/\S+)/);
      await waitForOutput(child, /running as pid \d+/);
      // Running for a while first, so its uptime (the observer's clock) is clearly longer than the window.
      await new Promise((r) => setTimeout(r, 3000));
      // Busy, scavenging, and not yielding until the observer is in place: collections from before it are pending.
      const holding = waitForOutput(child, /^holding$/m);
      child.stdin!.write('hold\n');
      await holding;
      const out = join(tempDir(), 'run');
      const r = await runCli(['attach', new URL(url!).host, '--duration', '3', '--out', out]);
      child.kill('SIGKILL');
      assert.equal(r.code, 0, r.stderr);
      assert.match(childOut, /^observed$/m, 'the target held until the observer was installed');

      const window = readSession(out).attach?.window;
      assert.ok(window, 'the session records the window on the target clock');
      const windowMs = window.endMs - window.startMs;
      assert.ok(windowMs > 2500 && windowMs < 4500, `a 3 s attach gave a ${windowMs} ms window`);
      assert.ok(window.startMs > 3000, `the target had run ${window.startMs} ms before the attach`);

      const summary = readSummary(out);
      const gc = summary.gc!;
      assert.equal(gc.wallMs, Math.round(windowMs * 1000) / 1000, 'the GC share is over the window');
      assert.ok(Math.abs(gc.wallShare - gc.totalPauseMs / windowMs) < 1e-5, `share ${gc.wallShare} = ${gc.totalPauseMs} ms / ${windowMs} ms`);

      // The observer was handed collections that ran before it existed (this target's own observer
      // had them pending); they are kept in the file but not counted, and the summary says so.
      const reported = readGcEvents(out);
      const begun = (e: AttachedGcEvent) => e.startMs!;
      const before = reported.filter((e) => begun(e) < window.startMs);
      const inside = reported.filter((e) => begun(e) >= window.startMs && begun(e) < window.endMs);
      assert.ok(before.length > 0, `no collection from before the window reached the observer: ${JSON.stringify(reported.slice(0, 3))}`);
      assert.equal(gc.eventCount, inside.length);
      assert.ok(inside.length > 5, `${inside.length} GC events in the window`);
      const counted = Object.values(gc.byType).reduce((n, t) => n + t.count, 0);
      assert.equal(counted, inside.length);
      const maxInside = Math.max(...inside.map((e) => e.pauseMs));
      assert.equal(Math.max(...Object.values(gc.byType).map((t) => t.maxMs)), Math.round(maxInside * 1000) / 1000, 'the max is of the window');
      assert.ok(summary.warnings.some((w) => w.includes(`${before.length} begun before V8 Lens attached`)), summary.warnings.join('\n'));
      assert.match(r.stdout, new RegExp(`GC \\(pid \\d+\\): ${inside.length} events, .* of ${(windowMs / 1000).toFixed(2)} s wall`));
      assert.match(r.stderr, new RegExp(`\\(${inside.length} GC events\\)`));
    });
  }
});

describe('attach: a process without an inspector', () => {
  it('a pid with no inspector: a clear error naming --open-inspector; with it, SIGUSR1 opens one and attach works', { timeout: 60_000 }, async () => {
    // --inspect-port=0: SIGUSR1 opens the inspector on a free port (not 9229, which parallel tests could share).
    const fixture = await startFixture('node', ['--inspect-port=0']);
    const listed = (await listLocalNodeProcesses()).find((p) => p.pid === fixture.pid);
    assert.equal(listed?.inspectorPort, null, 'listed, with no inspector');
    assert.match(listed.commandLine, /--inspect-port=0 .*attach-server\.js$/);
    const out = join(tempDir(), 'run');
    const refused = await runCli(['attach', String(fixture.pid), '--duration', '1', '--out', out]);
    assert.equal(refused.code, 2);
    assertCleanError(refused.stderr, /process \d+ has no inspector open; run again with --open-inspector/);
    assert.equal(existsSync(out), false, 'nothing is written');
    assert.doesNotMatch(fixture.stderr(), /Debugger listening/, 'no signal was sent');

    const r = await runCli(['attach', String(fixture.pid), '--open-inspector', '--duration', '1.5', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /opened the inspector of pid \d+ with SIGUSR1 \(on 127\.0\.0\.1:\d+\); it stays open until the process ends/);
    assert.match(fixture.stderr(), /Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//);
    const port = Number(/Debugger listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(fixture.stderr())![1]);
    assert.notEqual(port, 9229, 'the fixture chose a free port');
    assert.equal((await listLocalNodeProcesses()).find((p) => p.pid === fixture.pid)?.inspectorPort, port, 'listed, with its inspector port');
    const session = readSession(out);
    assert.equal(session.attach?.openedInspector, true);
    assert.equal(session.status, 'finished');
    assert.ok(readSummary(out).cpu, 'the profile was taken');
    assert.equal(processAlive(fixture.pid), true);
    assert.equal(await httpAnswers(fixture.httpPort), true);

    // The inspector stays open: attaching again needs no signal.
    const again = await runCli(['attach', String(fixture.pid), '--duration', '0.5', '--out', join(tempDir(), 'run2')]);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /SIGUSR1/);
    fixture.child.kill('SIGKILL');
  });
});

describe('attach: an inspector reachable from other machines', () => {
  it('refuses to open one that --inspect-port puts on every interface, before signalling it', { timeout: 60_000 }, async () => {
    const fixture = await startFixture('node', ['--inspect-port=0.0.0.0:0']);
    const out = join(tempDir(), 'run');
    const r = await runCli(['attach', String(fixture.pid), '--open-inspector', '--duration', '1', '--out', out]);
    assert.equal(r.code, 2);
    assertCleanError(r.stderr, /pid \d+ would open its inspector on 0\.0\.0\.0, not on loopback .*V8 Lens did not signal it.*--allow-remote/);
    assert.equal(existsSync(out), false, 'nothing is written');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.doesNotMatch(fixture.stderr(), /Debugger listening/, 'no signal was sent: the inspector never opened');
    fixture.child.kill('SIGKILL');
  });

  it('refuses one already open on 0.0.0.0 (said as it really listens), by pid and by 127.0.0.1:port; --allow-remote attaches', { timeout: 60_000 }, async () => {
    const fixture = await startFixture('node', ['--inspect=0.0.0.0:0']);
    const port = Number(new URL(fixture.inspectorUrl!).port);
    for (const target of [String(fixture.pid), `127.0.0.1:${port}`]) {
      const out = join(tempDir(), 'run');
      const r = await runCli(['attach', target, '--duration', '1', '--out', out]);
      assert.equal(r.code, 2, `${target}: ${r.stderr}`);
      assertCleanError(r.stderr, new RegExp(`inspector listens on 0\\.0\\.0\\.0:${port}, not on loopback`));
      assert.equal(existsSync(out), false);
    }
    const out = join(tempDir(), 'run');
    const allowed = await runCli(['attach', String(fixture.pid), '--allow-remote', '--duration', '1', '--out', out]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stderr, new RegExp(`attached to pid \\d+ on 0\\.0\\.0\\.0:${port}`), 'the address it really listens on');
    fixture.child.kill('SIGKILL');
  });
});

describe('attach: V8 Lens killed while attached', () => {
  it('the observer removes itself from the target within 15 s; the report says V8 Lens stopped, not the target', { timeout: 60_000 }, async () => {
    const fixture = await startFixture('node', ['--inspect=127.0.0.1:0']);
    const out = join(tempDir(), 'run');
    const cli = startCli(['attach', String(fixture.pid), '--duration', '60', '--out', out]);
    await waitForOutput(cli, /attached to pid \d+/, 30_000);
    const ours = () => evaluateInTarget(fixture.inspectorUrl!, `Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__v8lens_gc_'))`);
    assert.ok(((await ours()) as string[]).length > 0, 'the observer is installed while attached');
    assert.equal(await heapSamplerRunning(fixture.inspectorUrl!), true);
    cli.kill('SIGKILL');
    const deadline = Date.now() + 15_000;
    let left = (await ours()) as string[];
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      left = (await ours()) as string[];
    }
    assert.deepEqual(left, [], 'nothing of V8 Lens is left in the target');
    // V8 stops a session's sampler when the session goes: V8 Lens's connection closed with it.
    assert.equal(await heapSamplerRunning(fixture.inspectorUrl!), false, 'no allocation sampler is left either');
    assert.equal(processAlive(fixture.pid), true, 'the target runs on');

    const r = await runCli(['report', out, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const warnings = (JSON.parse(r.stdout) as { warnings: string[] }).warnings.join('\n');
    assert.match(warnings, /V8 Lens stopped \(killed or crashed\) before this run ended/);
    assert.doesNotMatch(warnings, /the target ended before profiling stopped/);
    fixture.child.kill('SIGKILL');
  });
});

describe('attach: bad addresses', () => {
  it('one line, exit code 2, no stack trace, no run folder', { timeout: 60_000 }, async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const notInspector: Server = createServer((_req, res) => res.end('hello')).listen(0, '127.0.0.1');
    await new Promise((r) => notInspector.once('listening', r));
    const httpPort = (notInspector.address() as AddressInfo).port;
    try {
      const cases: [string[], RegExp][] = [
        [['attach', 'hello'], /'hello' is not an inspector address: give a pid \(1234\), host:port/],
        [['attach', `127.0.0.1:${closedPort}`], new RegExp(`nothing is listening on 127\\.0\\.0\\.1:${closedPort}`)],
        [['attach', `ws://127.0.0.1:${closedPort}/abc`], new RegExp(`nothing is listening on 127\\.0\\.0\\.1:${closedPort}`)],
        [['attach', `127.0.0.1:${httpPort}`], new RegExp(`127\\.0\\.0\\.1:${httpPort} is not a Node inspector`)],
        [['attach', `ws://127.0.0.1:${httpPort}/abc`], new RegExp(`127\\.0\\.0\\.1:${httpPort} is not a Node inspector: it answered HTTP 200`)],
        [['attach', '192.0.2.1:9229'], /the inspector is full code execution: 192\.0\.2\.1:9229 is not on this machine.*--allow-remote/],
        [['attach', '999999999'], /no process with pid 999999999/],
        [['attach', String(process.pid)], /is not a Node process|has no inspector open/],
        [['attach'], /attach needs one target/],
        [['attach', '1234', '--duration', 'soon'], /--duration needs a positive number of seconds/],
      ];
      const outs = cases.map(() => join(tempDir(), 'never'));
      const results = await Promise.all(cases.map(([args], i) => runCli([...args, '--out', outs[i]!])));
      results.forEach((r, i) => {
        assert.equal(r.code, 2, `${cases[i]![0].join(' ')}: ${r.stderr}`);
        assertCleanError(r.stderr, cases[i]![1]);
        assert.equal(existsSync(outs[i]!), false);
      });
    } finally {
      notInspector.close();
    }
  });
});

describe('attach: the target ends mid-profile', () => {
  it('it exits by itself: non-zero exit, a clear message, GC events and the profile until then kept', { timeout: 60_000 }, async () => {
    const fixture = await startFixture('node', ['--inspect=127.0.0.1:0'], { EXIT_AFTER_MS: '2500' });
    const out = join(tempDir(), 'run');
    const r = await runCli(['attach', new URL(fixture.inspectorUrl!).host, '--duration', '20', '--out', out], { timeoutMs: 30_000 });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /v8-lens: the target exited with code 3 after \d+\.\d s of profiling/);
    assert.match(r.stderr, /whatever was collected is kept in /);
    assert.doesNotMatch(r.stderr, /^\s+at .+:\d+:\d+\)?$/m);
    const session = readSession(out);
    assert.equal(session.status, 'target-exited');
    assert.ok(readGcEvents(out).length > 0, 'GC events until the exit are kept');
    const summary = readSummary(out);
    assert.match(summary.warnings[0] ?? '', /the target exited with code 3/);
    assert.ok(summary.gc && summary.gc.eventCount > 0);
    assert.ok(summary.cpu, 'Node waits for the debugger at exit, so the profile could still be taken');
  });

  it('it is killed: non-zero exit, the profile is lost (and said so), the GC events are kept', { timeout: 60_000 }, async () => {
    const fixture = await startFixture('node', ['--inspect=127.0.0.1:0']);
    const out = join(tempDir(), 'run');
    const cli = startCli(['attach', new URL(fixture.inspectorUrl!).host, '--duration', '20', '--out', out]);
    const done = collect(cli, 30_000);
    await waitForOutput(cli, /attached to pid \d+/);
    await new Promise((r) => setTimeout(r, 1500));
    fixture.child.kill('SIGKILL');
    const r = await done;
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /v8-lens: the target \(pid \d+\) ended after \d+\.\d s of profiling without exiting normally \(killed or crashed\); the CPU profile is lost/);
    assert.equal(readSession(out).status, 'target-exited');
    assert.ok(readGcEvents(out).length > 0, 'GC events until the kill are kept');
    const summary = readSummary(out);
    assert.equal(summary.cpu, null);
    assert.match(summary.warnings[0] ?? '', /ended after .* the CPU profile is lost/);
  });
});

/** Evaluates an expression in the target over a fresh inspector session of our own; its value. */
async function evaluateInTarget(inspectorUrl: string, expression: string): Promise<unknown> {
  const ws = new WebSocket(inspectorUrl);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  try {
    ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, returnByValue: true } }));
    const answer = await new Promise<{ result?: { result?: { value?: unknown } } }>((resolve) => {
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { id?: number };
        if (m.id === 1) resolve(m as never);
      });
    });
    return answer.result?.result?.value;
  } finally {
    ws.close();
  }
}
