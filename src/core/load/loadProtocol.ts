/**
 * The IPC messages between V8 Lens and the forked load runner (dist/load-runner.js). Types only, so
 * the runner's bundle carries nothing of the caller's side.
 */
import type { AnswerSample } from './loadUrlCheck';
import type { LoadFigures } from '../../shared/model/load';

/** Parent → runner, once: the warm-up (discarded) and the measured phase run back to back. */
export interface LoadJob {
  type: 'start';
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  connections: number;
  /** 0: no warm-up, the measured phase starts at once. */
  warmupSeconds: number;
  /** The measured phase. */
  duration: number;
  /** autocannon's `overallRate` (req/s over all connections); null: closed loop. */
  rate: number | null;
  /** Per-request timeout, seconds. */
  timeout: number;
  /** When every warm-up request fails (4xx/5xx or no answer), send `warmup-done` and stop before measuring. */
  stopWhenWarmupFails?: boolean;
}

export type LoadPhase = 'warmup' | 'measuring';

export type RunnerMessage =
  /** Sent as a phase begins: V8 Lens marks the measured window by the arrival of `measuring`. */
  | { type: 'phase'; phase: LoadPhase }
  /** Once a second: answers (any status) in the last second. */
  | { type: 'tick'; phase: LoadPhase; rps: number }
  /** The warm-up is over: how it was answered; `stopping`: it all failed and the runner exits without measuring. */
  | { type: 'warmup-done'; sample: AnswerSample; stopping: boolean }
  /** The measured phase's figures; the runner exits after sending them. */
  | { type: 'result'; figures: LoadFigures }
  /** autocannon refused the job or failed; one line. */
  | { type: 'error'; message: string };
