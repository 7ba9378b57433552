/**
 * A run folder's prediction of a bigger young generation, for `v8-lens predict`, `sweep --from-run`
 * and the editor's "Confirm in the Semi-space Lab": the one in its summary.json, or, for a run
 * analysed before V8 Lens predicted (or whose summary.json cannot be used), made now from its files.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { YoungGenPrediction } from '../../shared/model/prediction';
import type { SessionRecord } from '../../shared/model/session';
import type { Summary } from '../../shared/model/summary';
import { UserError } from '../util/errors';
import { EXIT } from '../util/exitCodes';
import { analyzeRun } from './analyzeRun';
import { runLayout } from './runLayout';
import { readSessionRecord, readSummaryRecord } from './runRecords';

export interface RunPrediction {
  prediction: YoungGenPrediction | null;
  /** Why there is none; null when there is one. */
  missing: string | null;
  summary: Summary;
  session: SessionRecord | null;
}

export async function readRunPrediction(runDir: string): Promise<RunPrediction> {
  const dir = resolve(runDir);
  const info = await stat(dir).catch(() => null);
  if (!info) throw new UserError(`no such run folder: ${runDir}`, EXIT.usage);
  if (!info.isDirectory()) throw new UserError(`${runDir} is a file: a prediction is made from a run folder (its GC trace and its load's window)`);
  const [saved, session] = await Promise.all([readSummaryRecord(dir), readSessionRecord(dir)]);
  if (!saved.value && !session.value) throw new UserError(`${runDir} is not a V8 Lens run folder (no usable summary.json or session.json in it)`);
  const summary = saved.value && saved.value.prediction !== undefined ? saved.value : await analyzeRun(runLayout(dir), session.value);
  const missing = summary.prediction ? null : summary.predictionMissing ?? (summary.gc ? 'the run could not give one' : 'the run has no GC trace');
  return { prediction: summary.prediction ?? null, missing, summary, session: session.value };
}
