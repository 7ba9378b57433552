/**
 * Reading sweep.json back (the lab shows the last sweep when it opens): like a run folder's files,
 * through runFiles.ts (inside the folder, a regular file of a sane size, shape-checked), then brought
 * up to date by normalizeSweepResult.
 */
import { join } from 'node:path';
import type { SweepResult } from '../../shared/model/sweep';
import { checkSweepResult } from '../../shared/model/sweepCheck';
import { RUN_FILE_LIMITS, readRunJson } from '../run/runFiles';
import type { RunRecord } from '../run/runRecords';
import { errorMessage } from '../util/errors';
import { normalizeSweepResult } from './summarizeSweep';

/** sweep.json of any version, in today's shape; null with one line of reason when it cannot be used. */
export async function readSweepFile(folder: string): Promise<RunRecord<SweepResult>> {
  const read = await readRunJson<SweepResult>(folder, join(folder, 'sweep.json'), checkSweepResult, RUN_FILE_LIMITS.sweep);
  if (read.status !== 'ok') return { value: null, problem: read.status === 'bad' ? read.problem : null };
  try {
    return { value: normalizeSweepResult(read.value), problem: null };
  } catch (err) {
    return { value: null, problem: `sweep.json: ${errorMessage(err)}` };
  }
}
