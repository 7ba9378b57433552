/**
 * Merges per-isolate analyses (main thread and workers). Deopts are concatenated, each keeping its
 * isolate; the same function seen in several isolates becomes one entry with the union of its tiers.
 */
import { sortTiers } from './codeState';
import { functionKey } from './functionIndex';
import type { V8Function, V8LogAnalysis, V8LogCounters } from './types';

export function emptyCounters(): V8LogCounters {
  return { lines: 0, truncatedLines: 0, malformedLines: 0, ignoredEvents: {}, unresolvedDeopts: 0, deoptEvents: 0 };
}

export function mergeAnalyses(analyses: readonly V8LogAnalysis[]): V8LogAnalysis {
  if (analyses.length === 1) return analyses[0]!;
  const functions = new Map<string, V8Function>();
  for (const a of analyses) {
    for (const fn of a.functions) {
      const key = functionKey(fn);
      const known = functions.get(key);
      if (known === undefined) {
        functions.set(key, { ...fn, tiers: [...fn.tiers], optimizations: [...fn.optimizations] });
        continue;
      }
      known.tiers = sortTiers([...new Set([...known.tiers, ...fn.tiers])]);
      known.optimizations.push(...fn.optimizations);
      known.optimizationDisabled ||= fn.optimizationDisabled;
      known.sourceRange ??= fn.sourceRange;
    }
  }
  return {
    v8Version: analyses.find((a) => a.v8Version !== null)?.v8Version ?? null,
    isolates: analyses.flatMap((a) => a.isolates),
    functions: [...functions.values()],
    deopts: analyses.flatMap((a) => a.deopts),
    counters: sumCounters(analyses.map((a) => a.counters)),
  };
}

function sumCounters(list: readonly V8LogCounters[]): V8LogCounters {
  const total = emptyCounters();
  for (const c of list) {
    total.lines += c.lines;
    total.truncatedLines += c.truncatedLines;
    total.malformedLines += c.malformedLines;
    total.unresolvedDeopts += c.unresolvedDeopts;
    total.deoptEvents += c.deoptEvents;
    for (const [event, n] of Object.entries(c.ignoredEvents)) total.ignoredEvents[event] = (total.ignoredEvents[event] ?? 0) + n;
  }
  return total;
}
