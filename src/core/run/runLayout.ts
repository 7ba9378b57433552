import { join } from 'node:path';

/**
 * Where each artifact of a run lives inside its run folder. The raw artifacts keep the formats other
 * tools read (the `.cpuprofile` opens in Chrome DevTools and speedscope; the V8 logs in V8's tools).
 */
export interface RunLayout {
  dir: string;
  session: string;
  summary: string;
  /** V8's `--trace-gc` lines, exactly as printed (separated from the app's own output). */
  gcTrace: string;
  /** Attached runs: the GC events observed over the inspector (JSON lines), instead of gcTrace. */
  gcEvents: string;
  /** The load V8 Lens drove the target with, when profiling under load. */
  load: string;
  /** `--cpu-prof-dir`: one `.cpuprofile` per thread (Node names them CPU.<date>.<time>.<pid>.<tid>.<seq>). */
  cpuDir: string;
  /** `--logfile` folder: V8 writes one `isolate-<address>-<pid>-v8.log` per isolate here. */
  v8LogDir: string;
  v8LogFile: string;
  /** `--redirect-code-traces-to`: keeps `[bailout …]` lines out of the app's output. */
  codeTraces: string;
  /** The preload agent's per-process records (`<pid>.json`). */
  agentDir: string;
}

export function runLayout(dir: string): RunLayout {
  return {
    dir,
    session: join(dir, 'session.json'),
    summary: join(dir, 'summary.json'),
    gcTrace: join(dir, 'gc-trace.log'),
    gcEvents: join(dir, 'gc-events.jsonl'),
    load: join(dir, 'load.json'),
    cpuDir: join(dir, 'cpu'),
    v8LogDir: join(dir, 'v8'),
    v8LogFile: join(dir, 'v8', 'v8.log'),
    codeTraces: join(dir, 'v8', 'code-traces.asm'),
    agentDir: join(dir, 'agent'),
  };
}

/** Environment variables the preload agent reads. One place, so both sides agree. */
export const AGENT_ENV = {
  /** Folder for the agent's `<pid>.json` records; the agent does nothing without it. */
  dir: 'V8_LENS_AGENT_DIR',
  /**
   * The V8 Lens process (CLI or editor) that launched the target. If it disappears without stopping
   * the target (SIGKILL, a crash), the agent stops the target as Stop would: no orphans.
   */
  ownerPid: 'V8_LENS_OWNER_PID',
  /** How long an app's own SIGINT/SIGTERM handler may take before the agent exits for it. */
  exitGraceMs: 'V8_LENS_EXIT_GRACE_MS',
  /** Set when `--trace-gc` cannot be on the command line (NODE_OPTIONS refuses it). */
  traceGc: 'V8_LENS_TRACE_GC',
  /** Set when `--cpu-prof` cannot be on the command line: the agent profiles in-process instead. */
  cpuProfileDir: 'V8_LENS_CPU_PROFILE_DIR',
  cpuProfileIntervalUs: 'V8_LENS_CPU_PROFILE_INTERVAL_US',
} as const;
