/*
 * GC work on V8's helper threads, from `--trace-gc-nvp` (both forms: nvpLine.ts puts every pair in
 * `event.nvp`). The main thread's pause is what --trace-gc prints; the scavenger and the marker also
 * work in parallel and concurrently on the platform's worker threads, and V8 adds that up per GC in
 * its `background.*` phases. Names seen in real traces (the same on Node 20, 22, 24 and 26):
 *   Scavenge:      background.scavenge.parallel (Node 20 also background.unmapper)
 *   Mark-Compact:  background.mark, background.sweep, background.evacuate.copy,
 *                  background.evacuate.update_pointers (Node 20 also background.unmapper)
 * What they measure: the wall time of V8's scopes on the helper threads, fetched at the end of each
 * GC's pause (GCTracer::FetchBackgroundCounters, before the line is printed). So a scope that runs
 * after a Mark-Compact's pause (concurrent sweeping) or a marking step fetched into a scavenge's
 * event that does not print it is in no line: the sum is a lower bound of the helpers' GC time,
 * and, being wall time, an upper one of their CPU when a helper waited for a core mid-scope.
 */
import type { HelperGcSummary } from '../../shared/model/summary';
import { isYoungGenerationGc, type GcEvent } from './gcEvent';
import { round } from '../util/stats';

const PREFIX = 'background.';

/** The phase a `background.<phase>…` key belongs to, as the report groups them. */
export type HelperPhase = 'scavenge' | 'mark' | 'sweep' | 'evacuate' | 'other';

function phaseOf(key: string): HelperPhase {
  const rest = key.slice(PREFIX.length);
  const head = rest.split('.', 1)[0]!;
  return head === 'scavenge' || head === 'mark' || head === 'sweep' || head === 'evacuate' ? head : 'other';
}

/** This GC's helper-thread time, ms; null when its line had no phases (a --trace-gc line). */
export function helperGcMs(event: Pick<GcEvent, 'nvp'>): number | null {
  const nvp = event.nvp;
  if (nvp === undefined) return null;
  let ms = 0;
  for (const key in nvp) {
    if (!key.startsWith(PREFIX)) continue;
    const value = nvp[key];
    if (typeof value === 'number' && value > 0) ms += value;
  }
  return ms;
}

/** Helper-thread GC time of events, by phase; null when none of them had phases ("not collected"). */
export function summarizeHelperGc(events: readonly GcEvent[]): HelperGcSummary | null {
  let read = 0;
  let ms = 0;
  const byPhase: Partial<Record<HelperPhase, number>> = {};
  for (const e of events) {
    const nvp = e.nvp;
    if (nvp === undefined) continue;
    read++;
    for (const key in nvp) {
      if (!key.startsWith(PREFIX)) continue;
      const value = nvp[key];
      if (typeof value !== 'number' || !(value > 0)) continue;
      const phase = phaseOf(key);
      byPhase[phase] = (byPhase[phase] ?? 0) + value;
      ms += value;
    }
  }
  if (read === 0) return null;
  for (const phase of Object.keys(byPhase) as HelperPhase[]) byPhase[phase] = round(byPhase[phase]!, 3);
  return { ms: round(ms, 3), byPhase, events: read };
}

/** What a timeline point shows of an NVP event: its helper time and, for a young GC, what it copied. */
export function nvpPointFigures(event: Pick<GcEvent, 'nvp' | 'type'>): { helperMs?: number; survivedBytes?: number; promotedBytes?: number } {
  const nvp = event.nvp;
  if (nvp === undefined) return {};
  const out: { helperMs?: number; survivedBytes?: number; promotedBytes?: number } = { helperMs: round(helperGcMs(event) ?? 0, 3) };
  if (isYoungGenerationGc(event.type)) {
    if (typeof nvp.new_space_survived === 'number') out.survivedBytes = nvp.new_space_survived;
    if (typeof nvp.promoted === 'number') out.promotedBytes = nvp.promoted;
  }
  return out;
}
