/**
 * A sweep that confirms a run's prediction (`v8-lens sweep --from-run`, the report's "Confirm in the
 * Semi-space Lab"): the same target, started as the run started it, under the run's load, at the
 * run's size, the recommended one and one between (or 2× and 4× when none is recommended), with the
 * new space pinned to each size from the start (`--min-semi-space-size`: the prediction is for the
 * young generation at full size, which V8 may otherwise take long to grow into) and four rounds, the
 * fewest the lab's test can call a difference significant with.
 */
import { basename } from 'node:path';
import { rowAt } from '../predict/predictYoungGen';
import { readRunPrediction } from '../run/readRunPrediction';
import { readLoadRecord } from '../run/runRecords';
import { UserError } from '../util/errors';
import { EXIT } from '../util/exitCodes';
import { SWEEP_DEFAULTS } from '../../shared/labForm';
import { SEMI_SPACE_FLAG, type SweepConfig } from '../../shared/model/sweep';
import type { YoungGenPrediction } from '../../shared/model/prediction';

/** The rounds a confirming sweep runs unless told otherwise: 4 vs 4 is the fewest that reach p < 0.05. */
export const CONFIRM_ROUNDS = 4;

/** What the caller may set instead of the run's own settings. */
export interface FromRunChoices {
  sizesMB?: number[];
  rounds?: number;
  url?: string;
  connections?: number;
  rate?: number | null;
  warmupSeconds?: number;
  durationSeconds?: number;
  node?: string;
  profileRounds?: boolean;
}

/** The sizes to confirm: the run's, the one between, the recommended; or the run's, 2× and 4× without a recommendation. */
export function confirmSizes(prediction: YoungGenPrediction): number[] {
  const current = Math.max(1, Math.round(prediction.inputs.semiSpaceMB));
  const recommended = prediction.recommendation.semiSpaceMB;
  if (recommended === null || recommended <= current) return [current, current * 2, current * 4];
  const top = Math.round(recommended);
  const between = Math.round(Math.sqrt(current * top));
  return [...new Set([current, between, top])].sort((a, b) => a - b);
}

export async function sweepConfigFromRun(runDir: string, choices: FromRunChoices = {}): Promise<SweepConfig> {
  const { prediction, missing, session } = await readRunPrediction(runDir);
  if (!prediction) throw new UserError(`${runDir}: nothing to confirm, the run has no prediction (${missing ?? 'unknown'})`);
  if (prediction.per !== 'requests') throw new UserError(`${runDir} ran without load, so its prediction is per second: the lab measures per 1,000 requests; profile the service under load (--url) and confirm that run`);
  if (!session) throw new UserError(`${runDir} has no usable session.json: how the target was started is unknown`);
  if (session.launch.mode !== 'direct' || session.target.kind !== 'script') {
    throw new UserError(`${runDir} started its target through ${session.target.program} (NODE_OPTIONS): the lab starts node <flags> <script> itself; sweep the script's node command with v8-lens sweep --url … -- <script.js>`, EXIT.usage);
  }
  const load = (await readLoadRecord(runDir)).value;
  if (!load?.figures) throw new UserError(`${runDir} has no measured load window to repeat`);
  const url = choices.url ?? load.url;
  const sizes = choices.sizesMB ?? confirmSizes(prediction);
  const nodeArgs = session.flags.extra.filter((f) => !/^--(max|min)[-_]semi[-_]space[-_]size\b/.test(f));
  return {
    target: {
      label: session.target.name ?? basename(session.target.program),
      node: choices.node ?? session.node.command,
      script: session.target.program,
      args: session.target.args,
      cwd: session.target.cwd,
      env: {},
      nodeArgs,
    },
    readiness: { kind: 'url', url, timeoutMs: SWEEP_DEFAULTS.readyTimeoutSeconds * 1000 },
    request: { url, method: 'GET', headers: {}, body: null },
    load: {
      connections: choices.connections ?? load.connections,
      warmupSeconds: choices.warmupSeconds ?? load.warmupSeconds,
      durationSeconds: choices.durationSeconds ?? load.durationSeconds,
      rate: choices.rate !== undefined ? choices.rate : load.rate,
      timeoutSeconds: SWEEP_DEFAULTS.requestTimeoutSeconds,
    },
    flag: SEMI_SPACE_FLAG,
    values: sizes,
    sizesMB: sizes,
    rounds: choices.rounds ?? CONFIRM_ROUNDS,
    pinMinSemiSpace: true,
    profileRounds: choices.profileRounds ?? true,
    onRunFailure: 'continue',
    prediction: {
      fromRun: runDir,
      per: prediction.per,
      currentMB: prediction.inputs.semiSpaceMB,
      sitesTenured: prediction.inputs.sitesTenured,
      rows: sizes.map((mb) => rowAt(prediction.inputs, mb, prediction.per)),
    },
  };
}
