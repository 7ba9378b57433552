/**
 * `session.json`: how a run was made. Written when the run starts and again when it ends. Kept free of
 * imports so the webview can use the type too (the literal unions mirror LaunchMode, PresetId, StopKind).
 */
export interface SessionRecord {
  schemaVersion: 1;
  tool: { name: 'v8-lens'; version: string };
  /**
   * 'target-exited': an attached process ended while V8 Lens was profiling it (`attach.reason` says how).
   * 'interrupted': the V8 Lens that ran it ended before the run did (killed, the machine restarted);
   * set by a later report that found it 'running' with its `owner` gone (`interrupted` says what is known).
   */
  status: 'running' | 'finished' | 'stopped' | 'cancelled' | 'crashed' | 'failed' | 'target-exited' | 'interrupted';
  /**
   * The V8 Lens process that runs it (the CLI, or the editor's extension host), so that a later
   * reader can tell a run still being captured from one whose V8 Lens was killed. `startTicks`
   * (Linux: its start time since boot) tells a reused pid apart. Absent in older runs.
   */
  owner?: { pid: number; host: string; startTicks: number | null };
  /** What a later reader knew when it found the run interrupted (status 'interrupted'). */
  interrupted?: { detectedAt: string; lastWrittenAt: string | null };
  /**
   * 'launch': V8 Lens started the target; 'attach': it attached to a running process over the
   * inspector. Absent in files written before attaching existed: read it with `sessionMode`.
   */
  mode?: 'launch' | 'attach';
  /** Attach runs only: how the target was reached and how the attachment ended. */
  attach?: AttachInfo;
  node: { command: string; execPath: string; version: string; v8Version: string };
  /**
   * `name`: what the user picked it as (a launch configuration's name, `npm run start`), shown as the
   * run's title; absent for a plain file (its file name is the title) and in older runs.
   */
  target: { kind: 'script' | 'command'; program: string; args: string[]; cwd: string; name?: string };
  launch: {
    mode: 'direct' | 'node-options';
    /** The exact command line that was started. */
    command: string;
    argv: string[];
    /** Variables V8 Lens added to the environment (not the whole environment: it may hold secrets). */
    env: Record<string, string>;
    limitations: string[];
  };
  flags: {
    preset: string | null;
    /** `alloc` is absent in runs made before allocations could be collected. */
    capture: { cpu: boolean; gc: boolean; deopts: boolean; alloc?: boolean };
    samplingIntervalUs: number;
    semiSpaceMB: number | null;
    stableDeopts: boolean;
    extra: string[];
    /** Bytes between allocation samples; absent when allocations were not collected (or in older runs). */
    allocSamplingBytes?: number;
    /** Allocations sampled with inlining off (exact sites); absent when not collected (or in older runs). */
    exactAllocSites?: boolean;
    /** 'survivors': the sampler kept only what outlived a young GC (a survivors pass); absent: every allocation. */
    allocMode?: 'survivors';
    /** The GC trace was V8's phases (`--trace-gc-nvp`); absent: `--trace-gc`. */
    gcPhases?: boolean;
    /** NODE_OPTIONS the target inherited from its environment (absent in runs before it was recorded). */
    inheritedNodeOptions?: string | null;
    timeoutS: number | null;
  };
  pid: number | null;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  exit: {
    code: number | null;
    signal: string | null;
    requested: 'stop' | 'kill' | null;
    hardKilled: boolean;
  } | null;
  /** The last lines the target wrote to stderr, for a crash report. */
  stderrTail: string[];
  machine: { platform: string; cpus: number; loadavg: number[]; totalMemMB: number };
}

export interface AttachInfo {
  /** host:port of the inspector (the ws:// path holds the target's secret id and is not kept). */
  inspector: string;
  /** V8 Lens opened the inspector with SIGUSR1: it stays open until the process ends. */
  openedInspector: boolean;
  /** Through a VS Code debug session's CDP proxy (js-debug), sharing its connection. */
  viaDebugProxy: boolean;
  /** The target's command line (execPath, execArgv, argv), when known. */
  commandLine: string | null;
  /** Requested profiling time; null: until stopped. */
  requestedDurationMs: number | null;
  /** GC events the observer reported (some may lie outside `window`). */
  gcEvents: number;
  /**
   * The attached window on the target's performance clock (ms since its timeOrigin, like GC entries'
   * startTime): from the GC observer's start to the profile's stop. The GC figures cover only
   * collections begun inside it. Absent in run folders written before it was recorded.
   */
  window?: { startMs: number; endMs: number };
  /** Why the attachment ended other than as asked (one line), else null. */
  reason: string | null;
  /**
   * The sampling heap profile taken over CDP (`heap/<file>`), garbage included, with the epoch times
   * it covers; null when allocations were asked for but none could be taken (`reason` or the
   * limitations say why). Absent when not asked for, and in older runs.
   */
  allocations?: { file: string; samplingIntervalBytes: number; startMs: number; endMs: number; liveAtEndBytes: number | null } | null;
}

/** How a run was made; files written before attaching existed have no `mode`: they were launched. */
export function sessionMode(session: SessionRecord): 'launch' | 'attach' {
  return session.mode ?? 'launch';
}
