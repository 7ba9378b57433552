/**
 * Environment variables the preload agent reads. One place, so the launcher and the agent agree.
 * Lives beside the agent (the lowest layer): the launch plans and the run folder import it, never
 * the other way round.
 */
export const AGENT_ENV = {
  /** Folder for the agent's records (`<pid>.json`, `<pid>-<threadId>.json`); the agent does nothing without it. */
  dir: 'V8_LENS_AGENT_DIR',
  /**
   * The V8 Lens process (CLI or editor) that launched the target. If it disappears without stopping
   * the target (SIGKILL, a crash), the agent stops the target as Stop would: no orphans.
   */
  ownerPid: 'V8_LENS_OWNER_PID',
  /**
   * The run's stop grace: when the owner is gone, how long the target's process group gets after
   * SIGTERM before what is left of it is killed (sooner once the launched process has exited).
   */
  stopGraceMs: 'V8_LENS_STOP_GRACE_MS',
  /** How long an app's own SIGINT/SIGTERM handler may take before the agent exits for it. */
  exitGraceMs: 'V8_LENS_EXIT_GRACE_MS',
  /**
   * The GC trace, switched on by the preload: '1' for `--trace-gc`, 'nvp' for V8's phases
   * (`--trace-gc-nvp`), with V8's pretenuring decisions either way. Every launch but the lab's: NODE_OPTIONS
   * refuses the flag, and on a direct launch's command line it would cost the start-up Node's code
   * cache (see planDirectLaunch).
   */
  traceGc: 'V8_LENS_TRACE_GC',
  /** Set when `--cpu-prof` cannot be on the command line: the agent profiles in-process instead. */
  cpuProfileDir: 'V8_LENS_CPU_PROFILE_DIR',
  cpuProfileIntervalUs: 'V8_LENS_CPU_PROFILE_INTERVAL_US',
  /**
   * Folder (short enough for V8's 127-byte limit) where each process and thread writes its own code
   * trace, `code-<pid>-<threadId>.asm`; see codeTraceRedirect.ts.
   */
  codeTraceDir: 'V8_LENS_CODE_TRACE_DIR',
  /**
   * Folder for the sampling heap profiles (`<pid>.heapprofile`, `<pid>-<threadId>.heapprofile`):
   * set when allocations are collected; see allocationSampler.ts.
   */
  allocDir: 'V8_LENS_ALLOC_DIR',
  /** Bytes between samples of the heap profiler (V8 Lens's default: DEFAULT_ALLOC_SAMPLING_BYTES, 2 MB; the inspector's is 32768). */
  allocIntervalBytes: 'V8_LENS_ALLOC_INTERVAL_BYTES',
  /**
   * Set for a profile under load: allocations are sampled from the measured window's opening only
   * (see allocationSampler.ts), so the sampler is not in the app's heap during start-up and warm-up.
   */
  allocFromWindow: 'V8_LENS_ALLOC_FROM_WINDOW',
  /** Set when inlining must be off for exact allocation sites and the command line cannot say so (NODE_OPTIONS). */
  exactAllocSites: 'V8_LENS_EXACT_ALLOC_SITES',
  /** '1': the sampler keeps survivors only (objects no young GC freed); see allocationSampler.ts. */
  allocSurvivors: 'V8_LENS_ALLOC_SURVIVORS',
} as const;

/**
 * Files V8 Lens creates in the agent folder when a profile-under-load's measured window opens and
 * closes: the allocation sampler restarts at the first and stops at the second, so only the window
 * counts (the agent polls for them; the preload cannot be told otherwise without touching the app).
 */
export const WINDOW_MARK_FILES = { open: 'window-open', close: 'window-close' } as const;

/** The preload's code-trace probe function (codeTraceRedirect.ts): the trace reader leaves it out of the user's figures. */
export const CODE_TRACE_PROBE_NAME = 'v8LensCodeTraceProbe';

/**
 * V8's allocation-site pretenuring decisions, one line per weighed site at each scavenge
 * (`[pid:isolate] pretenuring: AllocationSite(0x…): (created, found, ratio) (…) old => new`): every
 * run with a GC trace records them, since one decision can put the same program in another GC regime.
 */
export const TRACE_PRETENURING_FLAG = '--trace-pretenuring-statistics';

/** The GC trace as V8's phases: helper-thread time, bytes copied and promoted per GC (gc/gcHelperTime.ts). */
export const TRACE_GC_NVP_FLAG = '--trace-gc-nvp';
