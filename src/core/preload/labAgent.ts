/**
 * The agent of the Semi-space Lab's measured runs (dist/lab-preload.js): the least a lab run needs
 * from inside the target, and nothing more, because every byte it allocates before the app's first
 * line moves the app's first scavenges, and with them V8's allocation-site pretenuring: the full
 * agent's start-up (~80–150 KB even after it was slimmed) still put Node 22 in another GC regime
 * than a plain run (335 scavenges per 1k requests instead of 109). This one allocates a few KB:
 *  - a stop keeps the GC trace whole: SIGINT/SIGTERM/SIGHUP end the process through process.exit(),
 *    so V8's buffered output is flushed (an app with its own handler gets `exitGraceMs` first);
 *  - an orphaned target (V8 Lens killed outright) stops itself, checked once a second;
 *  - the young generation it really had, read once a second and at the exit;
 *  - one record at the exit (`agent/<pid>.json`, the full agent's shape): peak RSS, CPU, exit.
 * It loads no profiler, no inspector, and no module the app would not load itself: not even
 * `node:v8` before the app's first line (it is read on the first tick; see lazyBuiltins.ts).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_ENV } from './agentEnv';
import type { AgentRecord } from './agentRecord';
import { currentThread } from './currentThread';
import { watchNewSpace } from './newSpaceWatch';
import { readProcStat } from '../launcher/procStats';
import { v8 } from '../util/lazyBuiltins';

const SIGNAL_EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
const TICK_MS = 1000;

function start(): void {
  const dir = process.env[AGENT_ENV.dir];
  // Worker threads run the --require too: their heaps are not what the lab measures.
  if (!dir || !currentThread().isMainThread) return;
  const startedAt = Date.now() - process.uptime() * 1000;
  let newSpaceMax = 0;
  let stopSignal: string | null = null;
  const newSpace = watchNewSpace();
  const readNewSpace = (last = false) => {
    newSpaceMax = newSpace(last);
  };

  const graceMs = Number(process.env[AGENT_ENV.exitGraceMs] ?? 3000);
  let fallback: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stopSignal = signal;
    const code = SIGNAL_EXIT_CODES[signal] ?? 1;
    if (process.listenerCount(signal) > 1) {
      // The app shuts down on its own: let it, but exit in time for the trace to be flushed.
      fallback ??= setTimeout(() => process.exit(code), graceMs);
      fallback.unref();
      return;
    }
    process.exit(code);
  };
  for (const signal of Object.keys(SIGNAL_EXIT_CODES) as NodeJS.Signals[]) process.on(signal, onSignal);

  const owner = Number(process.env[AGENT_ENV.ownerPid]);
  const tick = setInterval(() => {
    readNewSpace();
    if (Number.isInteger(owner) && owner > 0 && !alive(owner)) process.kill(process.pid, 'SIGTERM');
  }, TICK_MS);
  tick.unref();

  process.on('exit', (code) => {
    clearInterval(tick);
    readNewSpace(true);
    const usage = process.resourceUsage();
    const record: AgentRecord = {
      schemaVersion: 1,
      pid: process.pid,
      ppid: process.ppid,
      threadId: 0,
      clusterWorkerId: null,
      hasIpc: process.channel !== undefined,
      codeTrace: null,
      argv: process.argv,
      execArgv: process.execArgv,
      nodeVersion: process.version,
      v8Version: process.versions.v8,
      processStartMs: startedAt,
      updatedAtMs: Date.now(),
      final: true,
      exitCode: code,
      stopSignal,
      heapSizeLimitBytes: v8().getHeapStatistics().heap_size_limit,
      newSpaceMaxBytes: newSpaceMax,
      maxRssKB: usage.maxRSS,
      cpuUserUs: usage.userCPUTime,
      cpuSystemUs: usage.systemCPUTime,
      cpuProfileFile: null,
      errors: [],
    };
    try {
      const file = join(dir, `${process.pid}.json`);
      writeFileSync(`${file}.tmp`, JSON.stringify(record));
      renameSync(`${file}.tmp`, file);
    } catch {
      // The run folder may be gone; observing must not break the app.
    }
  });
}

/** Alive and not a zombie (a killed owner stays one until its parent reaps it); EPERM: alive, someone else's. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return readProcStat(pid)?.state !== 'Z';
}

try {
  start();
} catch {
  // Never break the app we were asked to observe.
}
