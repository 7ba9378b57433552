/**
 * What the editor draws on source files for one run: deopt sites and per-function deopt lenses,
 * line heat and hot-function lenses, allocation lenses, grouped by file. Built from a summary (buildAnnotations.ts);
 * the extension only renders it. Lines and columns are 1-based, times in ms.
 */

import type { DeoptCoverage } from '../../shared/model/summary';

export interface AnnotationThresholds {
  /** A line gets after-line text when its self time is at least this many ms… */
  heatMinMs: number;
  /** …and at least this share of the profile, in percent. */
  heatMinPercent: number;
  /** A function gets a self/total CodeLens when its total time is at least this share, in percent. */
  hotFunctionMinPercent: number;
  /** A function gets an allocation CodeLens when its own bytes are at least this share of all allocated, in percent. */
  allocMinPercent: number;
}

export const DEFAULT_THRESHOLDS: AnnotationThresholds = {
  heatMinMs: 1,
  heatMinPercent: 1,
  hotFunctionMinPercent: 2,
  // 5%: removing every byte of a function below it would cut young-GC work by less than the
  // run-to-run noise of the GC figures, and it keeps the lenses to the few (at most 20) allocators
  // worth changing. Shares are sampled estimates too: a small share rests on few samples.
  allocMinPercent: 5,
};

/** Per file, the most a viewer draws; the rest is counted and said in a notice. */
export const MAX_DEOPT_SITES_PER_FILE = 500;
export const MAX_LENSES_PER_FILE = 300;

export interface FilePosition {
  path: string;
  line: number;
  column: number;
}

export interface DeoptSite {
  line: number;
  /** 1-based; 0 when only the line is known. */
  column: number;
  /** V8's words, verbatim, and ours (deoptReasons.ts). */
  reason: string;
  short: string;
  explanation: string;
  fix: string;
  harmless: boolean;
  kind: string;
  count: number;
  /** The function the position is in, and the optimized function whose code was thrown away. */
  function: string;
  optimizedFunction: string;
  tier: string | null;
  /** Call sites it was inlined at, innermost first (mapped like the site itself). */
  inlinedAt: FilePosition[];
  firstMs: number | null;
  lastMs: number | null;
  /** Where V8 saw it, when a source map moved it to another file or line. */
  generated: FilePosition | null;
  /** Its function's way through the tiers ("TurboFan at 1.20 s, deoptimized 3×, now Maglev"), when it is among the hot ones. */
  tiers?: string | null;
}

export interface ReasonTally {
  short: string;
  count: number;
  harmless: boolean;
}

export interface DeoptFunctionLens {
  name: string;
  /** The function's first line; the lens sits above it. `exact` is false when only a site's line was known. */
  line: number;
  column: number;
  exact: boolean;
  /** Deopt events at sites inside it (its own optimized code, or its code inlined elsewhere). */
  count: number;
  reasons: ReasonTally[];
  /** Optimized again after its last deopt; null when unknown. */
  reoptimized: boolean | null;
  /** Every site in it, most frequent first (including sites beyond the per-file drawing cap). */
  sites: DeoptSite[];
}

export interface OptimizedFunctionLens {
  name: string;
  line: number;
  column: number;
  tiers: string[];
}

export interface HeatLine {
  line: number;
  selfMs: number;
  /** Share of the profile, 0–1. */
  share: number;
  /** 1 (barely sampled) to 5 (the hottest lines of the run), for the gutter mark. */
  level: 1 | 2 | 3 | 4 | 5;
  /** Above the thresholds: gets after-line text. */
  labeled: boolean;
}

export interface HotFunctionLens {
  name: string;
  line: number;
  column: number;
  selfMs: number;
  totalMs: number;
  selfShare: number;
  totalShare: number;
  /** Its way through the tiers (see DeoptSite.tiers) and, in a word or two, where it ended; absent when the run recorded none. */
  tiers?: { story: string; now: string } | null;
}

export interface AllocFunctionLens {
  name: string;
  /** The function's first line (heap profiles know no lines inside it); the lens sits above it. */
  line: number;
  column: number;
  /** Allocated in its own body over the run (sampled, garbage included). */
  selfBytes: number;
  /** selfBytes over everything the run allocated, 0–1. */
  share: number;
  /** The run's rate × share; null when the time the profile covers is unknown. */
  bytesPerSecond: number | null;
  /** Under load: the run's bytes per request × share; null otherwise. */
  bytesPerRequest: number | null;
  /** Its estimated share of the young-GC pause, ms; null when not known (older summaries, GC not traced). */
  youngGcPauseMsEstimate: number | null;
}

/** A function whose objects outlive young GCs (the survivors pass): what the scavenger copies and promotes for it. */
export interface SurvivorFunctionLens {
  name: string;
  line: number;
  column: number;
  /** Its sampled bytes that outlived a young GC, in the survivors pass. */
  bytes: number;
  /** Of all surviving bytes, 0–1. */
  share: number;
  /** Its survivors over what it allocated, 0–1; null when the two runs could not be compared. */
  survivalRate: number | null;
  /** Its estimated share of the young-GC pause (the copying), ms; null when not traced. */
  copyMsEstimate: number | null;
}

/** What every allocation lens's hover says about the run as a whole. */
export interface AllocRunFacts {
  samplingIntervalBytes: number;
  totalBytes: number;
  bytesPerSecond: number | null;
  /** The young GCs of the same time, when the GC was traced beside the sampling; null otherwise. */
  youngGcs: number | null;
  youngGcPauseMs: number | null;
  /** The report's sentence when V8 gave inlined functions' bytes to their callers; null otherwise. */
  inliningCaveat: string | null;
  /** Sampled with inlining off: exact sites, changed performance. */
  exactSites: boolean;
}

export interface FileAnnotations {
  /** The file as resolved on this machine (the original source when a source map moved it here). */
  path: string;
  deoptFunctions: DeoptFunctionLens[];
  /** Drawn on the lines, most frequent first, at most MAX_DEOPT_SITES_PER_FILE. */
  deoptSites: DeoptSite[];
  /** Sites left undrawn by the cap. */
  hiddenDeoptSites: number;
  hiddenDeoptLenses: number;
  heatLines: HeatLine[];
  hotFunctions: HotFunctionLens[];
  optimizedFunctions: OptimizedFunctionLens[];
  /** Functions whose own allocations are at least the threshold's share, biggest first. */
  allocFunctions: AllocFunctionLens[];
  /** Functions whose survivors (the survivors pass) are at least the allocation threshold's share of all, most first. */
  survivorFunctions: SurvivorFunctionLens[];
}

export interface RunAnnotations {
  /** The run folder or file the annotations come from. */
  source: string;
  /** When the profiled code ran (epoch ms): a file changed after it is stale. Null when unknown. */
  capturedAt: number | null;
  profileMs: number;
  deoptEvents: number;
  /** Whether the run looked for deopts at all: 'not-collected' makes `deoptEvents` 0 without meaning "none". */
  deoptCoverage: DeoptCoverage;
  /** null when the run did not sample allocations. */
  alloc: AllocRunFacts | null;
  /** Keyed by pathKey(path). */
  files: Map<string, FileAnnotations>;
  /** One line each: positions that could not be placed, source maps that could not be read. */
  warnings: string[];
}
