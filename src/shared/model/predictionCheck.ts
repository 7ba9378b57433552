/**
 * The shape of a prediction (prediction.ts) as summary.json and sweep.json hold it, checked field by
 * field (shapeCheck.ts): the report page, the text report and the lab read it without looking twice.
 */
import type { PredictedRange, PredictionCheck, PredictionInputs, PredictionIsolate, PredictionRecommendation, PredictionRow, SweepPrediction, YoungGenPrediction } from './prediction';
import { arrayOf, bool, nullable, num, oneOf, shape, str, type Check } from './shapeCheck';

/** A value one of two checks accepts. */
const either = (a: Check, b: Check): Check => (v, at) => (a(v, at) === null ? null : b(v, at));

const source = oneOf('trace-gc', 'nvp', 'survivors', 'trigger', 'none');
const basis = oneOf('requests', 'seconds');
const range = shape<PredictedRange>({ low: num, expected: num, high: num });

const isolate = shape<PredictionIsolate>({
  pid: num,
  isolate: str,
  semiSpaceBytes: num,
  usableBytes: num,
  fullSizeScavenges: num,
  allocatedBytesPerUnit: num,
  allocatedSource: source,
  scavenges: num,
  scavengesPerUnit: num,
  youngPauseMsPerUnit: num,
  meanScavengeMs: num,
  meanScavengeLowMs: num,
  meanScavengeHighMs: num,
  keptBytesPerScavenge: num,
  keptSource: source,
  promotedBytesPerScavenge: num,
  promotedSource: source,
  markCompactsPerUnit: num,
  markCompactMsPerUnit: num,
  youngGcWallShare: num,
});

const inputs = shape<PredictionInputs>({
  units: num,
  spanMs: num,
  isolates: arrayOf(isolate),
  semiSpaceMB: num,
  askedMB: nullable(num),
  allocatedBytesPerUnit: num,
  allocatedSource: source,
  sampledBytesPerUnit: nullable(num),
  sitesTenured: nullable(num),
  youngGcWallShare: num,
  scavengesPerUnit: num,
  youngPauseMsPerUnit: num,
  markCompactsPerUnit: num,
  markCompactMsPerUnit: num,
  promotedBytesPerUnit: num,
});

export const checkPredictionRow = shape<PredictionRow>({
  semiSpaceMB: num,
  current: bool,
  scavengesPerUnit: num,
  youngPauseMsPerUnit: range,
  promotedBytesPerUnit: nullable(range),
  markCompactsPerUnit: nullable(range),
  newSpaceMBPerIsolate: num,
  extraMemoryMB: num,
  processes: num,
  growthUnits: nullable(either(num, oneOf('never'))),
});

const recommendation = shape<PredictionRecommendation>({ semiSpaceMB: nullable(num), pinMinimum: bool, gainSmall: bool, text: str });

export const checkPrediction: Check = shape<YoungGenPrediction>({
  per: basis,
  inputs,
  rows: arrayOf(checkPredictionRow),
  recommendation,
  notes: arrayOf(str),
});

export const checkPredictionChecks: Check = arrayOf(shape<PredictionCheck>({
  semiSpaceMB: num,
  validRuns: num,
  predictedScavengesPer1k: num,
  measuredScavengesPer1k: nullable(num),
  scavengesError: nullable(num),
  predictedYoungMsPer1k: range,
  measuredYoungMsPer1k: nullable(num),
  youngMsInRange: nullable(bool),
  youngMsError: nullable(num),
  predictedDirection: nullable(oneOf('down', 'flat', 'up')),
  measuredDirection: nullable(oneOf('down', 'flat', 'up', '~')),
  regimeDiffers: nullable(str),
}));

export const checkSweepPrediction: Check = shape<SweepPrediction>({
  fromRun: str,
  per: basis,
  currentMB: num,
  sitesTenured: nullable(num),
  rows: arrayOf(checkPredictionRow),
});
