import { childProcess } from '../util/lazyBuiltins';
import { getDefaultHighWaterMark, setDefaultHighWaterMark, type Readable } from 'node:stream';
import { AGENT_ENV } from '../preload/agentEnv';
import { UserError } from '../util/errors';
import { groupAlive, signalGroup, trackGroup, untrackGroup } from './processGroup';
import { EXIT } from '../util/exitCodes';
import { LAUNCH_MARK_ENV, findStrayProcesses, newLaunchMark, type StrayProcess } from './strayProcesses';

export interface LaunchRequest {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** How long a graceful stop may take before the whole group is killed. */
  stopGraceMs?: number;
  /** The caller reads stdout and stderr with `readPaced`: their pipes stop being read while a chunk waits. */
  pacedOutput?: boolean;
}

export type StopKind = 'stop' | 'kill';

export interface TargetExit {
  /** Exit code of the launched process, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Whether V8 Lens asked it to end (`stop`: graceful, `kill`: at once), or null if it ended by itself. */
  requested: StopKind | null;
  /** True when the graceful stop timed out and the group had to be killed. */
  hardKilled: boolean;
  durationMs: number;
  /** Processes of the target's that left its process group (detached) and still run: out of reach, not stopped. */
  strays: StrayProcess[];
}

export interface TargetProcess {
  pid: number;
  startedAt: number;
  stdout: Readable;
  stderr: Readable;
  /** Resolves once the process has exited, its group is gone and its output has been read. */
  exited: Promise<TargetExit>;
  /** Resolves as soon as the process has exited (its output may still be in the pipes). */
  processExited: Promise<void>;
  /** Graceful stop: SIGINT to the group (like Ctrl-C in a terminal), SIGKILL after the grace time. */
  stop(): Promise<TargetExit>;
  /** Immediate stop: SIGKILL to the group. Profiles in flight are lost. */
  kill(): Promise<TargetExit>;
}

const DEFAULT_STOP_GRACE_MS = 10_000;
/** Children of the target still alive when it exits get this long after SIGTERM before SIGKILL. */
const ORPHAN_GRACE_MS = 1000;
/** Output pipes held open by a stray grandchild must not make us wait forever. */
const OUTPUT_CLOSE_TIMEOUT_MS = 2000;

/**
 * Spawns the target without a shell, in its own process group, with stdout/stderr piped. The caller
 * checks that `cwd` exists first: spawn reports a missing cwd as a missing command.
 */
export function launchTarget(request: LaunchRequest): Promise<TargetProcess> {
  const graceMs = request.stopGraceMs ?? DEFAULT_STOP_GRACE_MS;
  const mark = newLaunchMark();
  return new Promise((resolve, reject) => {
    const spawnIt = () => childProcess().spawn(request.command, [...request.args], {
      cwd: request.cwd,
      // The preload agent watches us: if we die without stopping the target, it stops itself.
      env: { ...request.env, [AGENT_ENV.ownerPid]: String(process.pid), [AGENT_ENV.stopGraceMs]: String(graceMs), [LAUNCH_MARK_ENV]: mark },
      shell: false,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const child = request.pacedOutput ? spawnWithMark(1, spawnIt) : spawnIt();
    const startedAt = Date.now();
    let requested: StopKind | null = null;
    let hardKilled = false;
    let graceTimer: NodeJS.Timeout | undefined;

    child.once('error', (err: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return; // errors after spawn surface through 'exit'
      if (err.code === 'ENOENT') reject(new UserError(`cannot start '${request.command}': not found`, EXIT.usage));
      else if (err.code === 'EACCES') reject(new UserError(`cannot start '${request.command}': permission denied`, EXIT.usage));
      else reject(new UserError(`cannot start '${request.command}': ${err.message}`, EXIT.usage));
    });

    child.once('spawn', () => {
      const pid = child.pid!;
      trackGroup(pid);

      const outputClosed = new Promise<void>((done) => child.once('close', () => done()));
      let processGone: () => void = () => undefined;
      const processExited = new Promise<void>((done) => (processGone = done));
      const exited = new Promise<TargetExit>((done) => {
        child.once('exit', async (code, signal) => {
          processGone();
          clearTimeout(graceTimer);
          await reapGroup(pid);
          // The race's timer is cleared once the output closes: left armed, it held the CLI 2 s after every run.
          await raceTimeout(outputClosed, OUTPUT_CLOSE_TIMEOUT_MS);
          // A grandchild that escaped our signals may still hold the pipes: stop reading them.
          child.stdout?.destroy();
          child.stderr?.destroy();
          untrackGroup(pid);
          const strays = findStrayProcesses(mark, pid);
          done({ code, signal, requested, hardKilled, durationMs: Date.now() - startedAt, strays });
        });
      });

      const kill = () => {
        requested = 'kill'; // a kill overrides a stop still in progress
        signalGroup(pid, 'SIGKILL');
        return exited;
      };
      const stop = () => {
        if (requested === null) {
          requested = 'stop';
          signalGroup(pid, process.platform === 'win32' ? 'SIGTERM' : 'SIGINT');
          graceTimer = setTimeout(() => {
            hardKilled = true;
            signalGroup(pid, 'SIGKILL');
          }, graceMs);
        }
        return exited;
      };

      resolve({ pid, startedAt, stdout: child.stdout!, stderr: child.stderr!, exited, processExited, stop, kill });
    });
  });
}

/** Node makes the pipes' sockets inside spawn, with the default high-water mark of that moment. */
function spawnWithMark<T>(mark: number, spawnIt: () => T): T {
  const before = getDefaultHighWaterMark(false);
  setDefaultHighWaterMark(false, mark);
  try {
    return spawnIt();
  } finally {
    setDefaultHighWaterMark(false, before);
  }
}

/** After the launched process exits, ends whatever it left running in its group. */
async function reapGroup(pid: number): Promise<void> {
  if (!groupAlive(pid)) return;
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + ORPHAN_GRACE_MS;
  while (Date.now() < deadline) {
    await delay(50);
    if (!groupAlive(pid)) return;
  }
  signalGroup(pid, 'SIGKILL');
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Waits for `promise` or `ms`, whichever comes first, and leaves no timer behind either way. */
async function raceTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
