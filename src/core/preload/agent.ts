/**
 * The preload agent: loaded with `--require` into the target's Node (any version from 18 on) by
 * every V8 Lens launch. It must never change what the app does, so it only observes, and it never
 * throws. Its jobs:
 *  1. Make a stop keep the CPU profile: Node writes `--cpu-prof` output only on a normal exit, and
 *     a SIGINT/SIGTERM with no handler kills the process first. We exit through `process.exit()`.
 *  2. Measure what flags cannot tell: the semi-space the run really had, peak RSS, CPU time.
 *  3. Switch the GC trace on with `v8.setFlagsFromString` (NODE_OPTIONS refuses --trace-gc, and on a
 *     direct launch's command line it would cost the start-up Node's code cache), and for targets
 *     started through NODE_OPTIONS (which refuses --cpu-prof) take the CPU profile in-process.
 *  4. Give each process and worker thread a code trace of its own (codeTraceRedirect.ts).
 *  5. Sample allocations, garbage included, when asked (allocationSampler.ts).
 * It runs in every process the target starts with our flags (fork, cluster) and in worker threads;
 * a main thread reaches its workers' agents through the inspector (workerRelay.ts).
 */
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { v8 } from '../util/lazyBuiltins';
import { AGENT_ENV, TRACE_GC_NVP_FLAG, TRACE_PRETENURING_FLAG } from './agentEnv';
import type { AgentRecord } from './agentRecord';
import { redirectCodeTrace, type CodeTraceRedirect } from './codeTraceRedirect';
import { startGroupReaper } from './groupReaper';
import { EXACT_ALLOC_SITES_FLAGS, startAllocationSampler, type AllocationSampler } from './allocationSampler';
import { readProcStat } from '../launcher/procStats';
import { watchNewSpace } from './newSpaceWatch';
import { currentThread } from './currentThread';
import { createWorkerRelay, exposeWorkerHook } from './workerRelay';
import { ownThreadId, readThreadCpu } from './threadCpu';
import { DEFAULT_ALLOC_SAMPLING_BYTES } from '../flags/presets';

const { isMainThread, threadId } = currentThread();
/** When the agent started, on the monotonic clock (nothing allocated for it but a bigint). */
const AGENT_START_HRTIME = process.hrtime.bigint();

const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
const SAMPLE_EVERY_MS = 250;
const OWNER_CHECK_EVERY_MS = 1000;
const WRITE_EVERY_MS = 2000;
/** The launcher's default, for a target started without AGENT_ENV.stopGraceMs. */
const DEFAULT_STOP_GRACE_MS = 10_000;
/**
 * How long the exit waits for the worker threads to write their profiles: each stops its own
 * (a sampler stop is a full GC of its heap), all at once; well within the stop grace.
 */
const WORKER_FINISH_MS = 5000;

function start(): void {
  const dir = process.env[AGENT_ENV.dir];
  if (!dir) return;
  loadBuiltinsBeforeFlags();
  // First, before the app traces anything: the code trace of this isolate (see codeTraceRedirect.ts).
  const codeTrace = startCodeTrace();
  // Forked children inherit the preload (execArgv) and this variable: each process and thread writes its own record.
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return;
  }
  const record = initialRecord(codeTrace.redirect);
  if (codeTrace.error) noteError(record, 'code trace', codeTrace.error);
  const file = join(dir, isMainThread ? `${process.pid}.json` : `${process.pid}-${threadId}.json`);
  let lastWritten = '';

  const newSpace = watchNewSpace();
  const allocations = startAllocations(record, dir);
  const traceClock = startTraceClock(record, codeTrace.redirect);
  // Only a main thread relays, and only when its workers' agents hold something in-process.
  const relay = isMainThread && (allocations || process.env[AGENT_ENV.cpuProfileDir]) ? createWorkerRelay((err) => noteError(record, 'worker threads', err)) : null;
  const sampleHeap = (last = false) => {
    try {
      record.newSpaceMaxBytes = Math.max(record.newSpaceMaxBytes, newSpace(last));
      record.heapSizeLimitBytes ??= v8().getHeapStatistics().heap_size_limit;
    } catch (err) {
      noteError(record, 'heap statistics', err);
    }
    // The window opened or closed: the workers look too (their own timers may never run).
    if (allocations?.poll()) relay?.send('poll');
  };
  const refresh = () => {
    sampleHeap();
    try {
      const usage = process.resourceUsage();
      record.maxRssKB = usage.maxRSS;
      record.cpuUserUs = usage.userCPUTime;
      record.cpuSystemUs = usage.systemCPUTime;
    } catch (err) {
      noteError(record, 'resource usage', err);
    }
    // This thread's own CPU: the process's above counts every thread (see threadCpu.ts).
    const own = readThreadCpu();
    record.threadCpuUs = own?.us ?? null;
    record.threadCpuSource = own?.source ?? null;
    record.updatedAtMs = Date.now();
  };
  const write = () => {
    const text = JSON.stringify(record);
    if (text === lastWritten) return;
    try {
      // Write then rename, so a reader (or a kill mid-write) never sees half a record.
      writeFileSync(`${file}.tmp`, text);
      renameSync(`${file}.tmp`, file);
      lastWritten = text;
    } catch {
      // The run folder may be gone (user deleted it); observing must not break the app.
    }
  };

  if (!isMainThread) {
    // A worker thread: its own heap (new space), lifetime and (NODE_OPTIONS launches) in-process
    // CPU profile. Signals and the owner watch belong to the process, i.e. its main thread. It
    // finishes at its own exit, or when the main thread's relay asks (a worker the process ends
    // gets no exit event), whichever comes first.
    const stopProfile = startInProcessProfile(record);
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      if (record.monotonicOriginUs === undefined) Object.assign(record, startClock());
      traceClock();
      stopProfile?.();
      record.allocations = allocations?.finish() ?? null;
      sampleHeap(true);
      refresh();
      record.final = true;
      write();
    };
    exposeWorkerHook({ poll: sampleHeap, finish });
    startRecording(sampleHeap, refresh, write, finish);
    return;
  }

  const traceGc = process.env[AGENT_ENV.traceGc];
  if (traceGc === '1' || traceGc === 'nvp') {
    try {
      v8().setFlagsFromString(traceGc === 'nvp' ? TRACE_GC_NVP_FLAG : '--trace-gc');
      // V8's allocation-site pretenuring decisions, which can put the same program in another GC
      // regime from one run to the next: recorded beside the GC trace (see gc/pretenuring.ts).
      v8().setFlagsFromString(TRACE_PRETENURING_FLAG);
    } catch (err) {
      noteError(record, 'trace-gc', err);
    }
  }
  const stopProfile = startInProcessProfile(record);
  const stopRecording = startRecording(sampleHeap, refresh, write, null);

  const graceMs = Number(process.env[AGENT_ENV.exitGraceMs] ?? 3000);
  let fallback: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    record.stopSignal = signal;
    const code = SIGNAL_EXIT_CODES[signal] ?? 1;
    if (process.listenerCount(signal) > 1) {
      // The app has its own handler (a graceful server shutdown): let it run, but exit in time
      // for the profile to be written before V8 Lens has to kill the process.
      // Its shutdown may terminate the worker threads (a pool's destroy()): they write theirs first.
      if (!fallback) relay?.sendAndWait('finish', WORKER_FINISH_MS);
      fallback ??= setTimeout(() => process.exit(code), graceMs);
      fallback.unref();
      return;
    }
    process.exit(code);
  };
  for (const signal of Object.keys(SIGNAL_EXIT_CODES) as NodeJS.Signals[]) process.on(signal, onSignal);
  watchOwner(dir);

  process.on('exit', (code) => {
    // First, while the worker threads still run: the process terminates them after this.
    relay?.sendAndWait('finish', WORKER_FINISH_MS);
    if (record.monotonicOriginUs === undefined) Object.assign(record, startClock());
    stopRecording();
    traceClock();
    stopProfile?.();
    record.allocations = allocations?.finish() ?? null;
    sampleHeap(true);
    refresh();
    record.final = true;
    record.exitCode = code;
    write();
  });
}

/**
 * Node compiles a built-in module from its embedded code cache only while V8's flags are the ones
 * Node was built with: once any is set (here or on the command line) every built-in loaded after
 * that compiles from source, `node:v8` alone 8-13 ms instead of 2.5 on a 2-core VM. So the modules
 * the agent will need are loaded before it sets its first flag; those it does not need, never.
 */
function loadBuiltinsBeforeFlags(): void {
  const env = process.env;
  if (env[AGENT_ENV.codeTraceDir] || env[AGENT_ENV.traceGc] || env[AGENT_ENV.exactAllocSites] || env[AGENT_ENV.allocDir]) v8();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (env[AGENT_ENV.allocDir] || env[AGENT_ENV.cpuProfileDir]) require('node:inspector');
}

/** Samples the heap often and rewrites the record now and then; returns the stop. `onExit`, when given, runs at the thread's exit. */
function startRecording(sampleHeap: (last?: boolean) => void, refresh: () => void, write: () => void, onExit: (() => void) | null): () => void {
  // The first heap reading waits for the first tick (or the exit): now it would load node:v8 into the
  // app's start-up (about 5 ms with V8 flags) to read a new space that has not grown yet.
  write();
  const sampler = setInterval(sampleHeap, SAMPLE_EVERY_MS);
  sampler.unref();
  const writer = setInterval(() => {
    refresh();
    write();
  }, WRITE_EVERY_MS);
  writer.unref();
  const stop = () => {
    clearInterval(sampler);
    clearInterval(writer);
  };
  if (onExit) {
    process.on('exit', () => {
      stop();
      onExit();
    });
  }
  return stop;
}

/** How often the code trace's size is read: the resolution of the times given to its optimizations and deopts. */
const TRACE_CLOCK_MS = 50;
/** Size readings kept at most (one per change): over 8 minutes of a trace that grows all the time. */
const TRACE_CLOCK_LIMIT = 10_000;

/**
 * The code trace has no times, but V8 writes each line as it happens (the file is closed after each
 * trace). Its size read every 50 ms, kept when it changed, dates each line by its byte offset:
 * "TurboFan at 1.2 s" and the deopt markers on the report's time axis. Returns a last reading.
 */
function startTraceClock(record: AgentRecord, redirect: CodeTraceRedirect | null): () => void {
  const dir = process.env[AGENT_ENV.codeTraceDir];
  if (!dir || !redirect?.file) return () => undefined;
  const path = join(dir, redirect.file);
  const sizes: [number, number][] = [];
  record.codeTraceSizes = sizes;
  let last = -1;
  let lastReadAt = 0;
  const read = () => {
    try {
      const size = statSync(path).size;
      // ms since the time origin from process.uptime(): `performance` would cost the app's heap 60–160 KB
      // at start-up; the two clocks differ by the ms between Node's start and its time origin, put
      // right at the end (below), and well inside the 25 ms these readings date a line to anyway.
      const now = Math.round(process.uptime() * 10_000) / 10;
      if (size !== last && sizes.length < TRACE_CLOCK_LIMIT) {
        // The last reading that still saw the old size bounds the new lines from below: without it a
        // quiet second before them would widen their time to that whole second.
        const previous = sizes[sizes.length - 1];
        if (previous && previous[0] !== lastReadAt) sizes.push([lastReadAt, last]);
        sizes.push([now, size]);
        last = size;
      }
      lastReadAt = now;
    } catch {
      // not there yet, or the run folder is gone
    }
  };
  read();
  const timer = setInterval(read, TRACE_CLOCK_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    read();
    const offset = performance.now() - process.uptime() * 1000;
    for (const reading of sizes) reading[0] = Math.round((reading[0] + offset) * 10) / 10;
  };
}

function startCodeTrace(): { redirect: CodeTraceRedirect | null; error: unknown } {
  const dir = process.env[AGENT_ENV.codeTraceDir];
  if (!dir) return { redirect: null, error: null };
  try {
    return { redirect: redirectCodeTrace(dir, process.pid, threadId), error: null };
  } catch (err) {
    return { redirect: null, error: err };
  }
}

/**
 * V8 Lens stops its targets when it ends; only a V8 Lens killed outright (SIGKILL, a crashed editor)
 * cannot. Then the target would run on with nobody reading its output, so it stops itself the way
 * Stop does: a real SIGTERM, so the app's own shutdown runs and the CPU profile is written. The
 * launched process leads its own process group; the whole group is signalled, so children it
 * started go too, and SIGKILL follows for those that ignore SIGTERM (groupReaper.ts).
 *
 * With nobody reading, the app's next write to stdout or stderr fails with EPIPE, and Node ends a
 * process on an EPIPE nobody handles, long before the owner check notices: an app that prints would
 * die of it, without its CPU profile. So EPIPE on those streams is taken as the news that the owner
 * is gone when it is, and the output is dropped; otherwise the error is the app's, untouched.
 */
function watchOwner(agentDir: string): void {
  const owner = Number(process.env[AGENT_ENV.ownerPid]);
  if (!Number.isInteger(owner) || owner <= 0 || owner === process.pid) return;
  let gone = false;
  const ownerGone = () => {
    if (gone) return;
    gone = true;
    clearInterval(timer);
    stopOwnGroup(agentDir);
  };
  const timer = setInterval(() => {
    if (!processRunning(owner)) ownerGone();
  }, OWNER_CHECK_EVERY_MS);
  timer.unref();

  const guard = (stream: NodeJS.WriteStream) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (gone || (err?.code === 'EPIPE' && !processRunning(owner))) return ownerGone();
      if (stream.listenerCount('error') > 1) return; // the app handles its stream's errors itself
      // As if the agent were not here: an error nobody handles ends the process, as it would have.
      stream.off('error', onError);
      stream.emit('error', err);
    };
    stream.on('error', onError);
  };
  whenCreated('stdout', guard);
  whenCreated('stderr', guard);
}

/**
 * Runs `use` on process.stdout or process.stderr once the app (or Node for it) first asks for it.
 * Not before: creating the stream switches a pipe to non-blocking mode, which V8's own trace output
 * through the same file descriptor would notice.
 */
function whenCreated(name: 'stdout' | 'stderr', use: (stream: NodeJS.WriteStream) => void): void {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  const nodeGetter = descriptor?.get;
  if (!descriptor || !nodeGetter || !descriptor.configurable) return;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable,
    get() {
      const stream = nodeGetter.call(process) as NodeJS.WriteStream;
      Object.defineProperty(process, name, descriptor); // Node's own getter from now on
      try {
        use(stream);
      } catch {
        // Observing must not break the app.
      }
      return stream;
    },
  });
}

/**
 * SIGTERM to this process's group, and SIGKILL to what is left of it soon after. Every process of
 * the run with the agent watches the owner: one per group does it (a file in the agent folder
 * decides which); a process that cannot tell its group stops itself.
 */
function stopOwnGroup(agentDir: string): void {
  const group = process.platform === 'win32' ? null : ownProcessGroup();
  if (group === null) {
    signal(process.pid, 'SIGTERM');
    return;
  }
  try {
    writeFileSync(join(agentDir, `.owner-gone-${group}`), String(process.pid), { flag: 'wx' });
  } catch (err) {
    // Another process of the group is stopping it (and so us); any other failure: better two stoppers than none.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
  }
  const graceMs = Number(process.env[AGENT_ENV.stopGraceMs] ?? DEFAULT_STOP_GRACE_MS);
  startGroupReaper(group, Number.isFinite(graceMs) && graceMs >= 0 ? graceMs : DEFAULT_STOP_GRACE_MS);
  if (!signal(-group, 'SIGTERM')) signal(process.pid, 'SIGTERM');
}

/** This process's group: its own pid when it leads one (the launched process does), else from /proc (Linux). */
function ownProcessGroup(): number | null {
  if (signal(-process.pid, 0)) return process.pid;
  const pgrp = readProcStat('self')?.pgrp ?? null;
  return pgrp !== null && Number.isInteger(pgrp) && pgrp > 1 ? pgrp : null;
}

function signal(target: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(target, sig);
    return true;
  } catch {
    return false;
  }
}

/** Alive and not a zombie (a killed owner stays one until its parent reaps it). */
function processRunning(pid: number): boolean {
  if (!processExists(pid)) return false;
  // No /proc here (or it ended just now: the next check tells): running.
  return readProcStat(pid)?.state !== 'Z';
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
  }
}

function initialRecord(codeTrace: CodeTraceRedirect | null): AgentRecord {
  return {
    schemaVersion: 1,
    pid: process.pid,
    ppid: process.ppid,
    threadId,
    tid: ownThreadId(),
    clusterWorkerId: clusterWorkerId(),
    hasIpc: isMainThread && process.channel !== undefined,
    codeTrace,
    argv: process.argv,
    execArgv: process.execArgv,
    nodeVersion: process.version,
    v8Version: process.versions.v8,
    processStartMs: Date.now() - process.uptime() * 1000,
    updatedAtMs: Date.now(),
    final: false,
    exitCode: null,
    stopSignal: null,
    heapSizeLimitBytes: null,
    newSpaceMaxBytes: 0,
    maxRssKB: 0,
    cpuUserUs: 0,
    cpuSystemUs: 0,

    cpuProfileFile: null,
    errors: [],
  };
}

/**
 * Where the monotonic clock (the one a .cpuprofile counts in) stood at the time origin, and when
 * after it the isolate was created: between V8's start and the environment's on a main thread (see
 * core/cpu/profileClock.ts); a worker's isolate, made as the worker starts, before this agent ran.
 */
function startClock(): Pick<AgentRecord, 'processStartMs' | 'monotonicOriginUs' | 'isolateCreatedMs'> {
  // Read at the exit: `performance` costs the app's heap 60 KB (Node 20) to 160 KB (Node 26) when
  // first touched, enough to move its first scavenges. The values do not change; a worker's isolate
  // was made before the agent started, which the cheap hrtime reading at start places.
  const now = performance.now() - Number(process.hrtime.bigint() - AGENT_START_HRTIME) / 1e6;
  const monotonicOriginUs = Number(AGENT_START_HRTIME) / 1000 - now * 1000;
  const timing = (performance as unknown as { nodeTiming: unknown }).nodeTiming as { v8Start?: number; environment?: number };
  const v8Start = timing.v8Start ?? -1;
  const environment = timing.environment ?? -1;
  const created: [number, number] = isMainThread && v8Start >= 0 && environment >= v8Start ? [v8Start, environment] : [0, now];
  return { processStartMs: performance.timeOrigin, monotonicOriginUs, isolateCreatedMs: created };
}


/**
 * The cluster worker id, or null when this is no cluster worker. Node sets a worker up (and deletes
 * NODE_UNIQUE_ID from the environment) before any preload runs; its cluster module is loaded then,
 * so asking it costs nothing, and nothing is loaded into a process that is not a worker.
 */
function clusterWorkerId(): number | null {
  const loaded = (process as unknown as { moduleLoadList?: string[] }).moduleLoadList;
  if (!isMainThread || !loaded?.includes('NativeModule internal/cluster/child')) return null;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const id = (require('node:cluster') as { worker?: { id?: unknown } }).worker?.id;
    return typeof id === 'number' ? id : 0;
  } catch {
    return 0;
  }
}

/** The allocation sampler, when the run collects allocations (see allocationSampler.ts). */
function startAllocations(record: AgentRecord, agentDir: string): AllocationSampler | null {
  const dir = process.env[AGENT_ENV.allocDir];
  if (!dir) return null;
  const interval = Number(process.env[AGENT_ENV.allocIntervalBytes]);
  if (process.env[AGENT_ENV.exactAllocSites] === '1') {
    // Before the app's code is optimized, so nothing is inlined (see EXACT_ALLOC_SITES_FLAGS).
    try {
      for (const flag of EXACT_ALLOC_SITES_FLAGS) v8().setFlagsFromString(flag);
    } catch (err) {
      noteError(record, 'exact allocation sites', err);
    }
  }
  try {
    const fromWindow = process.env[AGENT_ENV.allocFromWindow] === '1';
    const survivors = process.env[AGENT_ENV.allocSurvivors] === '1';
    return startAllocationSampler(dir, Number.isInteger(interval) && interval > 0 ? interval : DEFAULT_ALLOC_SAMPLING_BYTES, agentDir, (err) => noteError(record, 'allocations', err), fromWindow, survivors);
  } catch (err) {
    noteError(record, 'allocations', err);
    return null;
  }
}

/**
 * In-process CPU profile for NODE_OPTIONS launches, in every thread. On the main thread and in
 * workers `session.post` answers synchronously, so the exit path can stop the profiler and write the
 * file. Stopping twice writes once.
 */
function startInProcessProfile(record: AgentRecord): (() => void) | undefined {
  const dir = process.env[AGENT_ENV.cpuProfileDir];
  if (!dir) return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const inspector = require('node:inspector') as typeof import('node:inspector');
    const session = new inspector.Session();
    session.connect();
    const interval = Number(process.env[AGENT_ENV.cpuProfileIntervalUs] ?? 1000);
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval });
    session.post('Profiler.start');
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      session.post('Profiler.stop', (err, result) => {
        if (err || !result) return noteError(record, 'cpu profile', err);
        try {
          mkdirSync(dir, { recursive: true });
          // Named like Node's own --cpu-prof files, so one reader handles both.
          const name = `CPU.${stamp()}.${process.pid}.${threadId}.001.cpuprofile`;
          writeFileSync(join(dir, name), JSON.stringify(result.profile));
          record.cpuProfileFile = name;
        } catch (writeErr) {
          noteError(record, 'cpu profile', writeErr);
        }
      });
    };
  } catch (err) {
    noteError(record, 'cpu profile', err);
    return undefined;
  }
}

function stamp(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}.${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

function noteError(record: AgentRecord, what: string, err: unknown): void {
  if (record.errors.length < 20) record.errors.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
}

try {
  start();
} catch {
  // Never break the app we were asked to observe.
}
