/**
 * Attach to a running Node process over the Chrome DevTools Protocol: take a CPU profile for a
 * while, watch its GC live through a small in-process observer, and save a run folder like a
 * launched run (session.json, cpu/*.cpuprofile, gc-events.jsonl, summary.json). Everything
 * installed in the target is removed again; the target keeps running.
 */
import { mkdir, rm, unlink, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { createRunFolder, requireEmptyRunFolder, reserveRecordSpace, summarizeRunFolder, writeRunJson } from '../run/runFolderWriter';
import { RunFileStream } from '../run/runFileStream';
import { runOwner } from '../run/runOwner';
import { writeErrorText } from '../util/safeWrite';
import * as lazy from '../util/lazyBuiltins';
import { runLayout, type RunLayout } from '../run/runLayout';
import type { AttachInfo, SessionRecord } from '../../shared/model/session';
import { isLoopbackHost } from '../load/loopback';
import { readProcStat } from '../launcher/procStats';
import { UserError, errorMessage, isErrno, oneLine } from '../util/errors';
import { round } from '../util/stats';
import { CdpClosedError, CdpError, CdpSession } from './cdpSession';
import { inAttachWindow, type AttachWindow } from '../run/attachWindow';
import { formatGcEventLine, type AttachedGcEvent } from '../run/gcEventsFile';
import { HEARTBEAT_MS, ORPHAN_AFTER_MS, gcKindName, heartbeatExpression, installObserverExpression, observerNames, parseObservedGc, uninstallObserverExpression, type ObserverNames } from './gcObserverSource';
import { EXIT } from '../util/exitCodes';

export type { AttachedGcEvent } from '../run/gcEventsFile';
export type { AttachWindow } from '../run/attachWindow';

export interface AttachOptions {
  /** The run folder (created; must not exist or be empty). */
  outDir: string;
  /** null: until stop() is called. */
  durationMs: number | null;
  /** Profiler.setSamplingInterval. */
  samplingIntervalUs: number;
  /** Abort = stop and keep what was collected (like stop()). */
  signal?: AbortSignal;
  /** Live, as they arrive (the observer may report some begun before the window: see `AttachHandle.window`). */
  onGcEvent?: (e: AttachedGcEvent) => void;
  toolVersion: string;
  /**
   * For a debug session of VS Code: an already-open CDP endpoint (js-debug's requestCDPProxy gives
   * host/port, raw CDP over ws). The connection is the debugger's own: events come only after
   * JsDebug.subscribe, and the domains it uses are left enabled.
   */
  viaDebugProxy?: boolean;
  /** resolveInspector opened the inspector with SIGUSR1: recorded in the session and the result. */
  openedInspector?: boolean;
  /** Bytes between allocation samples (HeapProfiler.startSampling, garbage kept); null or absent: allocations are not collected. */
  allocSamplingBytes?: number | null;
}

export interface AttachHandle {
  /** Resolves once the profile is saved and everything installed was removed. */
  readonly done: Promise<AttachResult>;
  /** Stop profiling now (graceful), same as the duration running out. */
  stop(): void;
  readonly pid: number | null;
  /** The attached window so far (its end is null until profiling stops), on the target's clock. */
  readonly window: AttachWindow;
  /** How long the window has been open, ms (our clock, so no round trip to the target). */
  windowElapsedMs(): number;
}

export interface AttachResult {
  runDir: string;
  status: 'finished' | 'target-exited' | 'failed';
  /** One line when the status is not 'finished'. */
  reason: string | null;
  /** GC events begun inside the attached window (what the summary counts). */
  gcEvents: number;
  /** Path of the saved .cpuprofile; null when it was lost. */
  profile: string | null;
  openedInspector: boolean;
}

/** What the target says about itself (Runtime.evaluate). */
interface TargetInfo {
  pid: number;
  execPath: string;
  execArgv: string[];
  argv: string[];
  version: string;
  v8: string;
  cwd: string;
}

const MiB = 2 ** 20;
const INFO_EXPRESSION = `(() => {
  if (typeof process !== 'object' || process === null || !process.versions || !process.versions.node) return null;
  let cwd = '';
  try { cwd = process.cwd(); } catch {}
  return { pid: process.pid, execPath: process.execPath, execArgv: process.execArgv, argv: process.argv, version: process.version, v8: process.versions.v8, cwd };
})()`;

/**
 * Connects, checks it is Node, starts the profiler and installs the GC observer. Rejects with a
 * UserError for a wrong address, a closed port or something that is not a Node inspector (nothing
 * is left installed then, and no run folder is created).
 */
export async function attachAndProfile(webSocketUrl: string, options: AttachOptions): Promise<AttachHandle> {
  if (options.durationMs !== null && !(options.durationMs > 0)) throw new UserError(`the profiling time must be positive (got ${options.durationMs} ms)`, EXIT.usage);
  if (!Number.isInteger(options.samplingIntervalUs) || options.samplingIntervalUs < 1) {
    throw new UserError(`the sampling interval must be a whole number of microseconds ≥ 1 (got ${options.samplingIntervalUs})`, EXIT.usage);
  }
  const layout = runLayout(resolve(options.outDir));
  const folderExisted = await requireEmptyRunFolder(layout);

  const cdp = await CdpSession.connect(webSocketUrl, { timeoutMs: 5000, signal: options.signal });
  const viaProxy = options.viaDebugProxy ?? false;
  const names = observerNames(lazy.crypto().randomBytes(6).toString('hex'));
  let createdFolder = false;
  let gcStream: RunFileStream | null = null;
  let profiling = false;
  let sampling = false;
  // Ctrl-C or SIGTERM while attaching: drop the connection, which ends whatever command is waiting.
  let cancelled = false;
  const onSetupAbort = () => {
    cancelled = true;
    void cdp.close();
  };
  if (options.signal?.aborted) onSetupAbort();
  else options.signal?.addEventListener('abort', onSetupAbort, { once: true });
  let run: AttachRun | null = null;
  try {
    const info = await readTargetInfo(cdp, webSocketUrl);
    await createRunFolder(layout, [layout.cpuDir]);
    createdFolder = true;
    const releaseRecordSpace = await reserveRecordSpace(layout);
    gcStream = new RunFileStream(layout.gcEvents, 'gc-events.jsonl', (problem) => run?.writeFailed(problem));

    if (viaProxy) {
      // js-debug's proxy forwards events only after a subscription.
      await cdp.send('JsDebug.subscribe', { events: ['Runtime.bindingCalled'] }).catch(() => {});
    }
    run = new AttachRun(cdp, layout, options, names, info, gcStream, inspectorHost(webSocketUrl), releaseRecordSpace);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: options.samplingIntervalUs });
    await cdp.send('Runtime.addBinding', { name: names.binding });
    await cdp.send('Profiler.start');
    profiling = true;
    run.markStarted();
    sampling = await run.startAllocationSampling();
    const installed = await cdp.send<{ result?: { value?: { ok?: boolean; error?: string; since?: number } }; exceptionDetails?: { text?: string } }>('Runtime.evaluate', {
      expression: installObserverExpression(names),
      includeCommandLineAPI: true,
      returnByValue: true,
      silent: true,
    });
    const value = installed.result?.value;
    if (!value?.ok || typeof value.since !== 'number') {
      throw new UserError(`could not install the GC observer in the target: ${value?.error ?? installed.exceptionDetails?.text ?? 'no answer'}`, EXIT.failed);
    }
    run.openWindow(value.since);
    if (!viaProxy) {
      // Without this, a target that exits while we are attached waits for us ("Waiting for the
      // debugger to disconnect…") and we would not know; with it we are told and can save the profile.
      await cdp.send('NodeRuntime.notifyWhenWaitingForDisconnect', { enabled: true }).catch(() => {});
    }
    await run.writeSession();
    options.signal?.removeEventListener('abort', onSetupAbort);
    run.begin();
    return run;
  } catch (err) {
    options.signal?.removeEventListener('abort', onSetupAbort);
    if (cdp.isOpen) {
      await cdp.send('Runtime.evaluate', { expression: uninstallObserverExpression(names), returnByValue: true, silent: true }, 3000).catch(() => {});
      await cdp.send('Runtime.removeBinding', { name: names.binding }, 3000).catch(() => {});
      if (profiling) await cdp.send('Profiler.stop', {}, 10_000).catch(() => {});
      if (sampling) await stopAllocationSampler(cdp, viaProxy);
    }
    await cdp.close();
    if (gcStream) await gcStream.end();
    if (createdFolder) {
      // Leave no half-made run behind: the folder if we made it, else only what we put in it.
      const made = !folderExisted ? [layout.dir] : [layout.cpuDir, layout.gcEvents, layout.heapDir, layout.session];
      for (const path of made) await rm(path, { recursive: true, force: true }).catch(() => {});
    }
    if (cancelled) throw new UserError('cancelled while attaching; nothing was collected, and nothing is left in the target', EXIT.cancelled);
    if (err instanceof UserError) throw err;
    if (err instanceof CdpClosedError) {
      const host = inspectorHost(webSocketUrl);
      if (err.kind === 'garbage') throw new UserError(`${host} is not a Node inspector: ${err.message}`, EXIT.failed);
      if (err.kind === 'timeout') throw new UserError(`the target did not answer while V8 Lens was attaching (${err.message}): is it paused at a breakpoint, or stuck?`, EXIT.failed);
      throw new UserError(`the target closed the connection while V8 Lens was attaching (${err.message})`, EXIT.failed);
    }
    if (typeof (err as NodeJS.ErrnoException | null)?.code === 'string') throw new UserError(`cannot write the run folder ${layout.dir}: ${writeErrorText(err)}; nothing was collected`, EXIT.failed);
    if (err instanceof CdpError) throw new UserError(`the target refused ${err.message}`, EXIT.failed);
    throw err;
  }
}

async function readTargetInfo(cdp: CdpSession, url: string): Promise<TargetInfo> {
  let answer: { result?: { value?: unknown }; exceptionDetails?: unknown };
  try {
    answer = await cdp.send('Runtime.evaluate', { expression: INFO_EXPRESSION, returnByValue: true, silent: true }, 10_000);
  } catch (err) {
    if (err instanceof CdpError) throw new UserError(`${inspectorHost(url)} is not a Node inspector (${err.message})`, EXIT.usage);
    throw err;
  }
  const v = answer.result?.value as Partial<TargetInfo> | null | undefined;
  if (!v || typeof v.pid !== 'number') {
    throw new UserError(`${inspectorHost(url)} is not a Node inspector: the target has no Node 'process' (a browser page?)`, EXIT.usage);
  }
  return {
    pid: v.pid,
    execPath: String(v.execPath ?? ''),
    execArgv: Array.isArray(v.execArgv) ? v.execArgv.map(String) : [],
    argv: Array.isArray(v.argv) ? v.argv.map(String) : [],
    version: String(v.version ?? ''),
    v8: String(v.v8 ?? ''),
    cwd: String(v.cwd ?? ''),
  };
}

/**
 * Stops the sampling heap profiler and disables the domain (not on a debug session's connection,
 * which is the debugger's own), so no sampler stays in the target; the profile is dropped.
 */
async function stopAllocationSampler(cdp: CdpSession, viaProxy: boolean): Promise<void> {
  await cdp.send('HeapProfiler.stopSampling', {}, 30_000).catch(() => {});
  if (!viaProxy) await cdp.send('HeapProfiler.disable', {}, 5000).catch(() => {});
}

function inspectorHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

type FinishTrigger = 'stop' | 'target-exiting' | 'closed';

/** Profiler.stop after Ctrl-C or SIGTERM: a stop must end within seconds, not wait two minutes on a stuck target. */
const INTERRUPTED_STOP_MS = 10_000;

class AttachRun implements AttachHandle {
  readonly done: Promise<AttachResult>;
  private resolveDone!: (r: AttachResult) => void;
  private rejectDone!: (err: unknown) => void;
  private finishing: Promise<void> | null = null;
  private startedAtMs = Date.now();
  private startedAt = new Date();
  /** On the target's clock; startMs is set by openWindow before any report is counted. */
  private readonly attachWindow: AttachWindow = { startMs: Number.NaN, endMs: null };
  /** Our Date.now() when the window opened, to tell its length without asking the target. */
  private windowOpenedAtMs = Date.now();
  private timer: NodeJS.Timeout | undefined;
  /** "Still here" to the observer, which removes itself when these stop (V8 Lens killed). */
  private heartbeat: NodeJS.Timeout | undefined;
  private gcCount = 0;
  private readonly reported: AttachedGcEvent[] = [];
  private readonly limitations: string[] = [];
  private readonly unsubscribe: Array<() => void> = [];
  /** Epoch ms when allocation sampling started; null when it is not running. */
  private samplingSinceMs: number | null = null;
  /** What the run folder records about allocations: undefined when not asked for. */
  private allocations: AttachInfo['allocations'] = undefined;
  /** Stopped by Ctrl-C or SIGTERM: shorter waits on the target. */
  private interrupted = false;
  /** The first file of the run folder that could not be written (a full disk), one line. */
  private writeProblem: string | null = null;
  /** V8 said the target waits for us to disconnect (it is exiting). */
  private targetExiting = false;
  private begun = false;

  constructor(
    private readonly cdp: CdpSession,
    private readonly layout: RunLayout,
    private readonly options: AttachOptions,
    private readonly names: ObserverNames,
    private readonly info: TargetInfo,
    private readonly gcStream: RunFileStream,
    private readonly inspector: string,
    private readonly releaseRecordSpace: () => Promise<void>,
  ) {
    this.done = new Promise((res, rej) => {
      this.resolveDone = res;
      this.rejectDone = rej;
    });
    // Listen from the start: the observer may report before begin().
    this.unsubscribe.push(cdp.on('Runtime.bindingCalled', (p) => this.onBinding(p)));
    // The target may start to exit while the session is still being written, before begin(): V8
    // says so once, and a target that waits for us to disconnect would otherwise wait the whole
    // duration (a loaded machine lost it in a unit test).
    this.unsubscribe.push(
      cdp.on('NodeRuntime.waitingForDisconnect', () => {
        this.targetExiting = true;
        if (this.begun) this.trigger('target-exiting');
      }),
    );
  }

  get pid(): number | null {
    return this.info.pid;
  }

  stop(): void {
    this.trigger('stop');
  }

  /** A file of the run folder could not be written: stop profiling as on Cancel, and say why in the result. */
  writeFailed(problem: string): void {
    this.writeProblem ??= problem;
    this.trigger('stop');
  }

  markStarted(): void {
    this.startedAtMs = Date.now();
    this.startedAt = new Date();
  }

  /**
   * Starts V8's sampling heap profiler with the garbage kept, when allocations were asked for; true
   * when it runs. A target that refuses it is profiled without allocations, and the run says why.
   */
  async startAllocationSampling(): Promise<boolean> {
    const interval = this.options.allocSamplingBytes;
    if (interval === null || interval === undefined) return false;
    this.allocations = null;
    try {
      await this.cdp.send('HeapProfiler.enable');
      await this.cdp.send('HeapProfiler.startSampling', { samplingInterval: interval, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
      this.samplingSinceMs = Date.now();
      return true;
    } catch (err) {
      if (err instanceof CdpClosedError) throw err;
      this.limitations.push(oneLine(`allocations: the target refused the sampling heap profiler (${errorMessage(err)})`));
      return false;
    }
  }

  /** Stops the sampler (it is removed from the target either way) and keeps its profile; null when it is lost. */
  private async stopAllocationSampling(why: FinishTrigger): Promise<unknown> {
    if (this.samplingSinceMs === null) return null;
    const since = this.samplingSinceMs;
    this.samplingSinceMs = null;
    // Closed: the run's reason says the allocations are lost with the CPU profile (closedReason).
    if (why === 'closed' || !this.cdp.isOpen) return null;
    const viaProxy = this.options.viaDebugProxy ?? false;
    try {
      const endMs = Date.now();
      const answer = await this.cdp.send<{ profile?: unknown }>('HeapProfiler.stopSampling', {}, why === 'target-exiting' ? 10_000 : this.interrupted ? INTERRUPTED_STOP_MS : 120_000);
      const usage = await this.cdp.send<{ usedSize?: number }>('Runtime.getHeapUsage', {}, 3000).catch(() => null);
      if (!viaProxy) await this.cdp.send('HeapProfiler.disable', {}, 5000).catch(() => {});
      if (!answer.profile) return null;
      this.allocations = {
        file: `${this.info.pid}.heapprofile`,
        samplingIntervalBytes: this.options.allocSamplingBytes!,
        startMs: since,
        endMs,
        liveAtEndBytes: typeof usage?.usedSize === 'number' ? usage.usedSize : null,
      };
      return answer.profile;
    } catch (err) {
      if (this.cdp.isOpen && !viaProxy) await this.cdp.send('HeapProfiler.disable', {}, 5000).catch(() => {});
      this.limitations.push(oneLine(`allocations: the heap profile could not be taken (${errorMessage(err)})`));
      return null;
    }
  }

  /** The observer watches from `targetNowMs` (the target's performance.now()) on. */
  openWindow(targetNowMs: number): void {
    // Rounded like the events' times, so an event begun after it never compares as before.
    this.attachWindow.startMs = round(targetNowMs, 3);
    this.windowOpenedAtMs = Date.now();
  }

  get window(): AttachWindow {
    return { ...this.attachWindow };
  }

  windowElapsedMs(): number {
    const { startMs, endMs } = this.attachWindow;
    return endMs !== null ? endMs - startMs : Date.now() - this.windowOpenedAtMs;
  }

  /** Profiling runs: arm the duration, the abort signal, and the target's end. */
  begin(): void {
    const { durationMs, signal } = this.options;
    if (durationMs !== null) this.timer = setTimeout(() => this.trigger('stop'), Math.max(0, durationMs - (Date.now() - this.startedAtMs)));
    if (signal) {
      if (signal.aborted) this.trigger('stop');
      else {
        const onAbort = () => {
          this.interrupted = true;
          this.trigger('stop');
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.unsubscribe.push(() => signal.removeEventListener('abort', onAbort));
      }
    }
    this.heartbeat = setInterval(() => {
      if (this.cdp.isOpen) void this.cdp.send('Runtime.evaluate', { expression: heartbeatExpression(this.names), silent: true }, 5000).catch(() => {});
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    this.begun = true;
    if (this.targetExiting) this.trigger('target-exiting');
    void this.cdp.closed.then(() => this.trigger('closed'));
  }

  private trigger(why: FinishTrigger): void {
    if (this.finishing) return;
    this.finishing = this.finish(why).then(this.resolveDone, this.rejectDone);
  }

  private onBinding(params: Record<string, unknown>): void {
    if (params.name !== this.names.binding || typeof params.payload !== 'string') return;
    const o = parseObservedGc(params.payload);
    if (!o) return;
    const e: AttachedGcEvent = {
      timeMs: round(o.t, 3),
      ...(o.s !== null ? { startMs: round(o.s, 3) } : {}),
      type: gcKindName(o.kind),
      pauseMs: round(o.duration, 3),
      heapUsedMB: round(o.heapUsed / MiB, 3),
      heapTotalMB: round(o.heapTotal / MiB, 3),
    };
    this.gcCount++;
    this.reported.push(e);
    this.gcStream.write(formatGcEventLine(e));
    try {
      this.options.onGcEvent?.(e);
    } catch {
      // a listener's bug must not end the run
    }
  }

  private elapsedS(): string {
    return ((Date.now() - this.startedAtMs) / 1000).toFixed(1);
  }

  private async finish(why: FinishTrigger): Promise<AttachResult> {
    clearTimeout(this.timer);
    const viaProxy = this.options.viaDebugProxy ?? false;
    let status: AttachResult['status'] = 'finished';
    let reason: string | null = null;
    let profile: unknown = null;
    const endedAtMs = Date.now();
    this.attachWindow.endMs = await this.windowEnd(why, endedAtMs);
    // Before the CPU profile: serialising that allocates in the target, and it is not the app's.
    const heapProfile = await this.stopAllocationSampling(why);

    if (why !== 'closed') {
      try {
        const answer = await this.cdp.send<{ profile?: unknown }>('Profiler.stop', {}, why === 'target-exiting' ? 10_000 : this.interrupted ? INTERRUPTED_STOP_MS : 120_000);
        profile = answer.profile ?? null;
      } catch (err) {
        if (err instanceof CdpClosedError && !this.cdp.isOpen) {
          why = 'closed';
        } else {
          status = 'failed';
          reason = oneLine(`the CPU profile could not be taken: ${errorMessage(err)}`);
        }
      }
    }
    if (why === 'target-exiting') {
      status = 'target-exited';
      const code = await this.cdp
        .send<{ result?: { value?: unknown } }>('Runtime.evaluate', { expression: 'process.exitCode', returnByValue: true, silent: true }, 3000)
        .then((r) => (typeof r.result?.value === 'number' ? r.result.value : null), () => null);
      reason = `the target exited${code !== null ? ` with code ${code}` : ''} after ${this.elapsedS()} s of profiling; what was collected until then is kept`;
    }
    if (this.cdp.isOpen) {
      // Take out what we put in. A target that is exiting waits for us to disconnect: there this
      // only flushes the last GC entries, quickly, and the rest goes with the process.
      const exiting = why === 'target-exiting';
      try {
        const answer = await this.cdp.send<{ result?: { value?: { left?: unknown } } }>(
          'Runtime.evaluate',
          { expression: uninstallObserverExpression(this.names), returnByValue: true, silent: true },
          exiting ? 3000 : 10_000,
        );
        const left = answer.result?.value?.left;
        if (Array.isArray(left) && left.length > 0) this.limitations.push(`globals left in the target: ${left.join(', ')}`);
      } catch (err) {
        if (this.cdp.isOpen && !exiting) {
          this.limitations.push(
            oneLine(`could not remove the GC observer from the target (${errorMessage(err)}): it removes itself ${ORPHAN_AFTER_MS / 1000} s after V8 Lens stops calling`),
          );
        }
      }
      if (!exiting) {
        await this.cdp.send('Runtime.removeBinding', { name: this.names.binding }, 5000).catch(() => {});
        if (!viaProxy) await this.cdp.send('Profiler.disable', {}, 5000).catch(() => {});
      }
    }
    if (why === 'closed') {
      status = 'target-exited';
      reason = await this.closedReason();
    }
    clearInterval(this.heartbeat);
    for (const off of this.unsubscribe.splice(0)) off();
    await this.cdp.close();
    await this.gcStream.end();
    await this.releaseRecordSpace();

    // A full disk: each file that cannot be written is left out whole (never cut short) and said;
    // the run's records are still tried, then the result says what is missing.
    const unwritten: string[] = [];
    const save = async (name: string, write: () => Promise<void>, partial: string | null): Promise<boolean> => {
      try {
        await write();
        return true;
      } catch (err) {
        if (partial !== null) await unlink(partial).catch(() => undefined);
        unwritten.push(`${name} could not be written (${writeErrorText(err)})`);
        return false;
      }
    };
    let profilePath: string | null = null;
    if (profile !== null) {
      const path = join(this.layout.cpuDir, profileFileName(this.startedAt, this.info.pid));
      if (await save('the CPU profile', () => writeFile(path, JSON.stringify(profile)), path)) profilePath = path;
    }
    if (heapProfile !== null && this.allocations) {
      const path = join(this.layout.heapDir, this.allocations.file);
      const write = async () => {
        await mkdir(this.layout.heapDir, { recursive: true });
        await writeFile(path, JSON.stringify(heapProfile));
      };
      if (!(await save('the heap profile', write, path))) this.allocations = null;
    }
    if (this.writeProblem !== null || unwritten.length > 0) {
      status = 'failed';
      const what = [this.writeProblem, ...unwritten].filter((p) => p !== null).join('; ');
      reason = `${what}${this.writeProblem !== null ? ': profiling was stopped as on Cancel' : ''}; what could be written is kept`;
      this.limitations.push(reason);
    }
    const session = this.sessionRecord(status, reason, endedAtMs);
    const before = unwritten.length;
    await save('session.json', () => writeRunJson(this.layout.session, session), null);
    const summary = await summarizeRunFolder(this.layout, session);
    await save('summary.json', () => writeRunJson(this.layout.summary, summary), null);
    if (unwritten.length > before) {
      // The records themselves: only the result (and so the CLI's stderr) can say it.
      status = 'failed';
      reason = [reason, ...unwritten.slice(before)].filter((r) => r !== null).join('; ');
    }
    const inWindow = this.reported.filter((e) => inAttachWindow(e, this.attachWindow)).length;
    return { runDir: this.layout.dir, status, reason, gcEvents: inWindow, profile: profilePath, openedInspector: this.options.openedInspector ?? false };
  }

  /**
   * The window ends now, before Profiler.stop: the collections that serialising the profile causes in
   * the target are ours, not the app's. The target's own clock when it answers quickly; else ours.
   */
  private async windowEnd(why: FinishTrigger, endedAtMs: number): Promise<number> {
    const estimate = this.attachWindow.startMs + (endedAtMs - this.windowOpenedAtMs);
    if (why === 'closed' || !this.cdp.isOpen) return round(estimate, 3);
    const answer = await this.cdp
      .send<{ result?: { value?: unknown } }>('Runtime.evaluate', { expression: 'performance.now()', returnByValue: true, silent: true }, 2000)
      .catch(() => null);
    const value = answer?.result?.value;
    return round(typeof value === 'number' && Number.isFinite(value) ? value : estimate, 3);
  }

  private async closedReason(): Promise<string> {
    const allocs = this.allocations !== undefined ? ', and so are the sampled allocations' : '';
    const lost = `the CPU profile is lost (V8 hands it over only when profiling stops)${allocs}; the GC events until then are kept`;
    const local = isLoopbackHost(this.inspector.replace(/:\d+$/, '')) && !this.options.viaDebugProxy;
    if (local && (await goneWithin(this.info.pid, 1000))) {
      return `the target (pid ${this.info.pid}) ended after ${this.elapsedS()} s of profiling without exiting normally (killed or crashed); ${lost}`;
    }
    return `the connection to the target closed after ${this.elapsedS()} s of profiling (the process ended, or its inspector or debug session was closed); ${lost}`;
  }

  async writeSession(): Promise<void> {
    await writeRunJson(this.layout.session, this.sessionRecord('running', null, null));
  }

  private sessionRecord(status: SessionRecord['status'], reason: string | null, endedAtMs: number | null): SessionRecord {
    const { info, options } = this;
    const script = info.argv[1];
    const commandLine = info.execPath ? [info.execPath, ...info.execArgv, ...info.argv.slice(1)].map(quoteArg).join(' ') : null;
    return {
      schemaVersion: 1,
      tool: { name: 'v8-lens', version: options.toolVersion },
      status,
      owner: runOwner(),
      mode: 'attach',
      node: { command: info.execPath, execPath: info.execPath, version: info.version, v8Version: info.v8 },
      target: script
        ? { kind: 'script', program: script, args: info.argv.slice(2), cwd: info.cwd }
        : { kind: 'command', program: info.execPath || 'node', args: info.execArgv, cwd: info.cwd },
      launch: { mode: 'direct', command: info.execPath, argv: [...info.execArgv, ...info.argv.slice(1)], env: {}, limitations: [...this.limitations] },
      flags: {
        preset: null,
        capture: { cpu: true, gc: true, deopts: false, alloc: options.allocSamplingBytes !== null && options.allocSamplingBytes !== undefined },
        samplingIntervalUs: options.samplingIntervalUs,
        ...(options.allocSamplingBytes ? { allocSamplingBytes: options.allocSamplingBytes, exactAllocSites: false } : {}),
        semiSpaceMB: null,
        stableDeopts: false,
        extra: [],
        timeoutS: options.durationMs === null ? null : options.durationMs / 1000,
      },
      pid: info.pid,
      startedAt: this.startedAt.toISOString(),
      endedAt: endedAtMs === null ? null : new Date(endedAtMs).toISOString(),
      durationMs: endedAtMs === null ? null : endedAtMs - this.startedAtMs,
      exit: null,
      stderrTail: [],
      machine: { platform: process.platform, cpus: cpus().length, loadavg: loadavg(), totalMemMB: Math.round(totalmem() / MiB) },
      attach: {
        inspector: this.inspector,
        openedInspector: options.openedInspector ?? false,
        viaDebugProxy: options.viaDebugProxy ?? false,
        commandLine,
        requestedDurationMs: options.durationMs,
        gcEvents: this.gcCount,
        reason,
        ...(this.attachWindow.endMs !== null ? { window: { startMs: this.attachWindow.startMs, endMs: this.attachWindow.endMs } } : {}),
        ...(this.allocations !== undefined ? { allocations: this.allocations } : {}),
      },
    };
  }
}

/** Named like Node's --cpu-prof output (CPU.<date>.<time>.<pid>.<thread>.<seq>), so the run's readers know the pid. */
function profileFileName(at: Date, pid: number): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const date = `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}`;
  const time = `${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
  return `CPU.${date}.${time}.${pid}.0.001.cpuprofile`;
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

/** Whether the process is gone (or a zombie waiting for its parent) within the time. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!isRunning(pid)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (!isErrno(err, 'EPERM')) return false;
  }
  if (process.platform !== 'linux') return true;
  const stat = readProcStat(pid);
  return stat !== null && stat.state !== 'Z';
}

