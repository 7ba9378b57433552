/**
 * The run's prediction of a bigger young generation (predict/predictYoungGen.ts), from what the run
 * folder holds: each process's and thread's GC events (V8 Lens's own left out), its agent record
 * (when its isolate started, its largest new space), the load's measured window and requests, and
 * the sampled allocations as a cross-check. Under load the figures are per 1,000 requests of the
 * window; without load per second of each isolate's life.
 */
import { totalmem } from 'node:os';
import type { IsolateEvents } from '../gc/gcSummary';
import type { GcEvent } from '../gc/gcEvent';
import { predictYoungGeneration } from '../predict/predictYoungGen';
import type { IsolateGc, PredictionWindow, SurvivorsHint } from '../predict/youngGenInputs';
import type { YoungGenPrediction } from '../../shared/model/prediction';
import type { AllocSummary, GcSummary, LoadSummary, SurvivorsSummary } from '../../shared/model/summary';
import type { RunProcess } from './processTable';

export interface RunPredictionInput {
  /** The app's processes and threads (npm's own left out). */
  processes: readonly RunProcess[];
  /** Their GC events by isolate, V8 Lens's own GCs included (they bound the app's allocation) and named in `v8LensGcs`. */
  isolates: readonly IsolateEvents[];
  v8LensGcs: ReadonlySet<GcEvent>;
  load: LoadSummary | null;
  gc: GcSummary | null;
  alloc: AllocSummary | null | undefined;
  survivors: SurvivorsSummary | null | undefined;
  /** A process's or thread's wall time, ms (for a run without load); null when unknown. */
  wallMsOf(p: RunProcess): number | null;
  /** The machine's memory, bytes; os.totalmem() by default. */
  machineMemoryBytes?: number;
}

/** The prediction, or null with the reason it could not be made ("not collected" is never a zero). */
export function runPrediction(input: RunPredictionInput): { prediction: YoungGenPrediction | null; reason: string | null } {
  const { load, gc } = input;
  if (!gc) return { prediction: null, reason: 'the run has no GC trace' };
  if (load && (!load.figures || !load.windowEpochMs)) return { prediction: null, reason: 'the load measured no window' };
  const window: PredictionWindow = load?.figures && load.windowEpochMs ? { startEpochMs: load.windowEpochMs.start, endEpochMs: load.windowEpochMs.end, requests: load.figures.requests } : null;
  const isolates: IsolateGc[] = input.processes.flatMap((p) => {
    const group = p.isolate === null ? undefined : input.isolates.find((i) => i.pid === p.pid && i.isolate === p.isolate);
    if (!group || group.events.length === 0) return [];
    return [{ pid: p.pid, isolate: group.isolate, events: group.events, startEpochMs: p.record?.processStartMs ?? null, newSpaceMaxBytes: p.record?.newSpaceMaxBytes ?? null, wallMs: input.wallMsOf(p), notTheApps: input.v8LensGcs }];
  });
  const sampled = input.alloc && !input.alloc.liveOnly && input.alloc.mode !== 'survivors' ? (window ? input.alloc.bytesPerRequest : input.alloc.bytesPerSecond) : null;
  return predictYoungGeneration({
    isolates,
    window,
    askedMB: gc.semiSpaceRequestedMB,
    sampledBytesPerUnit: sampled ?? null,
    sitesTenured: gc.pretenuring ? gc.pretenuring.sitesTenured : null,
    survivors: survivorsHint(input.survivors),
    machineMemoryBytes: input.machineMemoryBytes ?? totalmem(),
  });
}

/** What the survivors pass's own trace said a scavenge kept and promoted; null without one that traced it. */
function survivorsHint(s: SurvivorsSummary | null | undefined): SurvivorsHint | null {
  const young = s?.youngGc;
  if (!young || young.count === 0 || young.copiedBytes === null || young.promotedBytes === null) return null;
  return { keptBytesPerScavenge: young.copiedBytes / young.count, promotedBytesPerScavenge: young.promotedBytes / young.count };
}
