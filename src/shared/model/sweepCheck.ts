/**
 * The shape of sweep.json, checked as far as the lab reads it before normalizeSweepResult brings an
 * older file up to date (see sweep.ts). The swept flag must look like a flag name: the lab writes
 * `--<flag>=<value>` into package.json or launch.json on Apply, so a crafted sweep.json must not
 * smuggle a shell command in with it.
 */
import type { Recommendation, SweepConfig, SweepResult, SweepRun, SweepSettingResult, SweepTarget } from './sweep';
import { checkPredictionChecks, checkSweepPrediction } from './predictionCheck';
import { anyObject, arrayOf, nullable, num, oneOf, optional, shape, str, type Check } from './shapeCheck';

/** A V8 or Node flag name without its dashes: letters, digits, - and _. */
export const flagName: Check = (v, at) => {
  if (typeof v !== 'string') return str(v, at);
  return /^-{0,2}[A-Za-z0-9][A-Za-z0-9_-]*$/.test(v.trim()) ? null : `${at} is ${JSON.stringify(v.slice(0, 60))}, not a flag name`;
};

const run = shape<Pick<SweepRun, 'flag' | 'value' | 'semiSpaceMB' | 'round' | 'index' | 'status' | 'load' | 'gc'>>({
  flag: optional(flagName),
  value: optional(num),
  semiSpaceMB: optional(nullable(num)),
  round: num,
  index: num,
  status: oneOf('ok', 'invalid', 'cancelled'),
  load: nullable(anyObject),
  gc: nullable(anyObject),
});

export const checkSweepResult: Check = shape<Pick<SweepResult, 'schemaVersion' | 'config' | 'environment' | 'status' | 'results' | 'recommendation' | 'warnings' | 'predictionChecks'>>({
  schemaVersion: oneOf(1),
  config: shape<Pick<SweepConfig, 'target' | 'flag' | 'values' | 'sizesMB' | 'rounds' | 'prediction'>>({
    target: shape<Pick<SweepTarget, 'label' | 'script' | 'cwd'>>({ label: str, script: str, cwd: str }),
    flag: optional(flagName),
    values: optional(arrayOf(num)),
    sizesMB: optional(arrayOf(num)),
    rounds: num,
    // The lab's page draws the prediction beside the measurement from these.
    prediction: optional(checkSweepPrediction),
  }),
  environment: anyObject,
  status: oneOf('finished', 'cancelled', 'stopped-on-failure', 'failed'),
  results: arrayOf(shape<Pick<SweepSettingResult, 'runs'>>({ runs: arrayOf(run) })),
  recommendation: shape<Pick<Recommendation, 'reason' | 'value' | 'semiSpaceMB'>>({ reason: str, value: optional(nullable(num)), semiSpaceMB: optional(nullable(num)) }),
  warnings: optional(arrayOf(str)),
  predictionChecks: optional(checkPredictionChecks),
});
