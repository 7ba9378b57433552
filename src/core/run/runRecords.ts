/**
 * The JSON records of a run folder (session.json, summary.json, load.json), read through
 * runFiles.ts and shape-checked: each gives its value, or null with one line of reason (`problem`)
 * when the file is there but unusable. A missing file is no problem: many runs have no load.json,
 * and a run still being captured has no summary yet.
 */
import type { SessionRecord } from '../../shared/model/session';
import { checkSession } from '../../shared/model/sessionCheck';
import { withSummaryDefaults, type LoadSummary, type Summary } from '../../shared/model/summary';
import { checkLoadSummary, checkSummary } from '../../shared/model/summaryCheck';
import { RUN_FILE_LIMITS, readRunJson, type RunJson } from './runFiles';
import { runLayout } from './runLayout';

export interface RunRecord<T> {
  value: T | null;
  /** Why the file that is there was not used, one line ("session.json: launch is a number, not an object"); null otherwise. */
  problem: string | null;
}

function record<T>(read: RunJson<T>): RunRecord<T> {
  if (read.status === 'ok') return { value: read.value, problem: null };
  return { value: null, problem: read.status === 'bad' ? read.problem : null };
}

export async function readSessionRecord(runDir: string): Promise<RunRecord<SessionRecord>> {
  return record(await readRunJson<SessionRecord>(runDir, runLayout(runDir).session, checkSession, RUN_FILE_LIMITS.session));
}

/** summary.json with the fields older versions did not write filled in (see withSummaryDefaults). */
export async function readSummaryRecord(runDir: string): Promise<RunRecord<Summary>> {
  const read = record(await readRunJson<Summary>(runDir, runLayout(runDir).summary, checkSummary, RUN_FILE_LIMITS.summary));
  return read.value ? { value: withSummaryDefaults(read.value), problem: null } : read;
}

export async function readLoadRecord(runDir: string): Promise<RunRecord<LoadSummary>> {
  return record(await readRunJson<LoadSummary>(runDir, runLayout(runDir).load, checkLoadSummary, RUN_FILE_LIMITS.load));
}
