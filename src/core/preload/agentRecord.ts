/**
 * What the preload agent writes about each Node process it runs in (`agent/<pid>.json`). The agent
 * rewrites the file while the process runs, so a process that is killed still leaves a record;
 * `final` says whether its exit handler ran.
 */
export interface AgentRecord {
  schemaVersion: 1;
  pid: number;
  ppid: number;
  argv: string[];
  execArgv: string[];
  nodeVersion: string;
  v8Version: string;
  /** Epoch ms when the process started (performance.timeOrigin). */
  processStartMs: number;
  /** Epoch ms of the last update (the exit, when `final`). */
  updatedAtMs: number;
  final: boolean;
  exitCode: number | null;
  /** The signal V8 Lens (or anyone) sent to stop the process, when the agent handled one. */
  stopSignal: string | null;
  heapSizeLimitBytes: number;
  /** Largest V8 new space seen. The new space is two semi-spaces and grows by doubling. */
  newSpaceMaxBytes: number;
  /** Peak resident set size (process.resourceUsage().maxRSS), KB. */
  maxRssKB: number;
  cpuUserUs: number;
  cpuSystemUs: number;
  machine: { cpus: number; loadavg: number[]; totalMemBytes: number; platform: string };
  /** File name of the profile the agent took itself (NODE_OPTIONS launches), if any. */
  cpuProfileFile: string | null;
  /** Problems the agent met (it never throws into the app). */
  errors: string[];
}

export function semiSpaceMBFromNewSpace(newSpaceBytes: number): number {
  return newSpaceBytes / 2 / (1024 * 1024);
}
