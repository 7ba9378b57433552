import type { ChildProcess } from 'node:child_process';
import { childProcess } from '../util/lazyBuiltins';
import type { AnswerSample } from './loadUrlCheck';
import type { LoadFigures } from '../../shared/model/load';
import type { LoadJob, LoadPhase, RunnerMessage } from './loadProtocol';
import { crashLine } from '../util/errors';

export interface LoadEvents {
  /** A phase begins (arrival of the runner's message: V8 Lens marks the measured window by it). */
  onPhase(phase: LoadPhase): void;
  onTick(phase: LoadPhase, rps: number): void;
  /** The measured figures arrived (V8 Lens closes the measured window by it). */
  onResult(): void;
  /** The warm-up is over, with how it was answered (before `measuring`, or instead of it when it all failed). */
  onWarmupDone?(sample: AnswerSample, stopping: boolean): void;
}

export type LoadOutcome = { ok: true; figures: LoadFigures } | { ok: false; reason: string };

export interface LoadGenerator {
  pid: number | undefined;
  /** Resolves with the measured figures, or why there are none (never rejects). */
  readonly done: Promise<LoadOutcome>;
  /** Ends the load at once (SIGKILL); `done` resolves with reason 'stopped'. Resolves once the runner is gone. */
  kill(): Promise<void>;
}

/**
 * Forks the bundled load runner (dist/load-runner.js) and gives it the job. The runner runs on the
 * Node that runs V8 Lens (in the editor: VS Code's own, as Node), never in this process. Its
 * environment drops NODE_OPTIONS (the user's preloads have no business in the generator) and it
 * inherits no execArgv (tsx, inspector flags).
 */
export function startLoad(runnerPath: string, job: Omit<LoadJob, 'type'>, events: LoadEvents): LoadGenerator {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child: ChildProcess = childProcess().fork(runnerPath, [], {
    execArgv: [],
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < 4096) stderr += text;
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('close', () => resolve());
  });

  let killed = false;
  let warmupFailed = false;
  let figures: LoadFigures | null = null;
  let error: string | null = null;
  child.on('message', (message: RunnerMessage) => {
    switch (message.type) {
      case 'phase':
        events.onPhase(message.phase);
        break;
      case 'tick':
        events.onTick(message.phase, message.rps);
        break;
      case 'warmup-done':
        warmupFailed = message.stopping;
        events.onWarmupDone?.(message.sample, message.stopping);
        break;
      case 'result':
        figures = message.figures;
        events.onResult();
        break;
      case 'error':
        error = message.message;
        break;
    }
  });

  const done = new Promise<LoadOutcome>((resolve) => {
    child.once('error', (err) => {
      // A fork that could not start: 'exit' may never follow.
      if (child.pid === undefined) resolve({ ok: false, reason: `the load generator could not start: ${err.message}` });
    });
    // 'close' (not 'exit'): it comes after the IPC channel has delivered the runner's last message.
    child.once('close', (code, signal) => {
      if (killed) return resolve({ ok: false, reason: 'stopped' });
      if (figures) return resolve({ ok: true, figures });
      if (error) return resolve({ ok: false, reason: `the load generator failed: ${error}` });
      if (warmupFailed) return resolve({ ok: false, reason: 'every warm-up request failed, so nothing was measured' });
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const detail = crashLine(stderr);
      resolve({ ok: false, reason: `the load generator ${how}${detail ? `: ${detail.slice(0, 200)}` : ''}` });
    });
  });

  child.send({ type: 'start', ...job } satisfies LoadJob);

  return {
    pid: child.pid,
    done,
    async kill() {
      killed = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
