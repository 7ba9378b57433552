import { basename } from 'node:path';
import type { RunAnnotations } from '../../core/annotations/annotationTypes';
import { runClock } from '../../shared/runTime';

/** "run 14:02:33" for a run folder, the file name for a profile opened from elsewhere. */
export function runLabel(run: Pick<RunAnnotations, 'source' | 'capturedAt'>): string {
  if (/\.(cpuprofile|log|txt|json)$/i.test(run.source)) return basename(run.source);
  if (run.capturedAt === null) return basename(run.source);
  return `run ${runClock(run.capturedAt)}`;
}
