import type { AllocationRecord } from './allocationSampler';
import type { CodeTraceRedirect } from './codeTraceRedirect';

/**
 * What the preload agent writes about each Node process and worker thread it runs in
 * (`agent/<pid>.json` for a main thread, `agent/<pid>-<threadId>.json` for a worker thread). The
 * agent rewrites the file while the process runs, so a process that is killed still leaves a record;
 * `final` says whether its exit handler ran. Fields added later are optional: older records lack them.
 */
export interface AgentRecord {
  schemaVersion: 1;
  pid: number;
  ppid: number;
  /** worker_threads' threadId: 0 for a process's main thread. */
  threadId?: number;
  /** The kernel's id of the thread (Linux; the pid for a main thread): pairs it with /proc/<pid>/task/<tid>. Null elsewhere. */
  tid?: number | null;
  /** `cluster` worker id (NODE_UNIQUE_ID) when the process is a cluster worker, else null. */
  clusterWorkerId?: number | null;
  /** Started with an IPC channel (child_process.fork, cluster): a child of another Node process. */
  hasIpc?: boolean;
  /** Where this isolate's code trace went (see codeTraceRedirect.ts); null when no code trace was asked for. */
  codeTrace?: CodeTraceRedirect | null;
  /**
   * Its code trace's size over time: [ms since the time origin, bytes], one reading per change, read
   * every 50 ms. Dates the trace's lines (it has no times of its own); absent without a trace of its own.
   */
  codeTraceSizes?: [number, number][];
  argv: string[];
  execArgv: string[];
  nodeVersion: string;
  v8Version: string;
  /** Epoch ms when the process (or worker thread) started (performance.timeOrigin). */
  processStartMs: number;
  /** The monotonic clock (a .cpuprofile's) at the time origin, µs: lines the CPU profile up with the GC trace. */
  monotonicOriginUs?: number;
  /** When after the time origin the isolate was created, at the earliest and latest, ms (see core/cpu/profileClock.ts). */
  isolateCreatedMs?: [number, number] | null;
  /** Epoch ms of the last update (the exit, when `final`). */
  updatedAtMs: number;
  final: boolean;
  exitCode: number | null;
  /** The signal V8 Lens (or anyone) sent to stop the process, when the agent handled one. */
  stopSignal: string | null;
  /** V8's heap limit; null until the agent's first heap reading (on its first tick, or at the exit). */
  heapSizeLimitBytes: number | null;
  /** Largest V8 new space seen. The new space is two semi-spaces and grows by doubling. */
  newSpaceMaxBytes: number;
  /** Peak resident set size (process.resourceUsage().maxRSS), KB. */
  maxRssKB: number;
  /** The whole process's CPU time (every thread), µs. */
  cpuUserUs: number;
  cpuSystemUs: number;
  /**
   * This thread's own CPU time at `updatedAtMs`, µs (see threadCpu.ts); null when the platform cannot
   * tell. A worker blocked in Atomics.wait never runs the agent's timers, so its last reading can be
   * old: the run's thread poller (launcher/threadPoller.ts) has the later figure.
   */
  threadCpuUs?: number | null;
  threadCpuSource?: 'threadCpuUsage' | 'schedstat' | null;
  /** Older records only: the machine is in session.json (what the agent reads at start-up, it allocates in the app's heap). */
  machine?: { cpus: number; loadavg: number[]; totalMemBytes: number; platform: string };
  /** The sampling heap profile this isolate wrote; null when allocations were not collected or it failed (see errors). */
  allocations?: AllocationRecord | null;
  /** File name of the profile the agent took itself (NODE_OPTIONS launches), if any. */
  cpuProfileFile: string | null;
  /** Problems the agent met (it never throws into the app). */
  errors: string[];
}

export function semiSpaceMBFromNewSpace(newSpaceBytes: number): number {
  return newSpaceBytes / 2 / (1024 * 1024);
}
