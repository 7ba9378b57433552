/**
 * `session.json`: how a run was made. Written when the run starts and again when it ends. Kept free of
 * imports so the webview can use the type too (the literal unions mirror LaunchMode, PresetId, StopKind).
 */
export interface SessionRecord {
  schemaVersion: 1;
  tool: { name: 'v8-lens'; version: string };
  status: 'running' | 'finished' | 'stopped' | 'cancelled' | 'crashed' | 'failed';
  node: { command: string; execPath: string; version: string; v8Version: string };
  target: { kind: 'script' | 'command'; program: string; args: string[]; cwd: string };
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
    capture: { cpu: boolean; gc: boolean; deopts: boolean };
    samplingIntervalUs: number;
    semiSpaceMB: number | null;
    stableDeopts: boolean;
    extra: string[];
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
