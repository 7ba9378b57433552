import { DEFAULT_ALLOC_SAMPLING_BYTES, DEFAULT_SAMPLING_INTERVAL_US, PRESETS, type CaptureSet, type PresetId } from './presets';

export interface CaptureOptions {
  capture: CaptureSet;
  samplingIntervalUs: number;
  /** `--max-semi-space-size` in MB; null leaves V8's default (which differs by Node version and memory). */
  semiSpaceMB: number | null;
  /** Adds STABLE_DEOPTS_FLAG, so the same program deopts the same way every run (see captureOptionsFor). */
  stableDeopts: boolean;
  /** Further V8/Node flags, validated against the target's Node. */
  extraFlags: readonly string[];
  /** Bytes between allocation samples (when allocations are collected). */
  allocSamplingBytes: number;
  /** Inlining off while allocations are sampled, so each allocation is its own function's (see EXACT_ALLOC_SITES_FLAGS). */
  exactAllocSites: boolean;
  /**
   * What the allocation sampler keeps: 'all' (garbage included, the default) or 'survivors' (V8 drops
   * the samples of objects a young GC freed: what the scavenger copied and promoted). One per run:
   * V8 runs one sampling heap profiler per isolate. Absent: 'all'.
   */
  allocMode?: AllocMode;
  /**
   * The GC trace as V8's phases (`--trace-gc-nvp` instead of `--trace-gc`): each GC's helper-thread
   * time and what a scavenge copied and promoted, but no GC reason before Node 26. Absent: false.
   */
  gcPhases?: boolean;
}

export type AllocMode = 'all' | 'survivors';

/** What "stable deopts" adds: recompilation on the main thread, so a program deopts the same way every run. */
export const STABLE_DEOPTS_FLAG = '--no-concurrent-recompilation';

/** What a front door (the CLI's options, the palette's pickers) asked for; anything left out takes the default. */
export interface CaptureChoice {
  preset: PresetId;
  samplingIntervalUs?: number;
  semiSpaceMB?: number | null;
  stableDeopts?: boolean;
  /** The user's V8/Node flags as typed (settings, launch.json runtimeArgs, `--v8-flag`). */
  extraFlags?: readonly string[];
  allocSamplingBytes?: number;
  exactAllocSites?: boolean;
  allocMode?: AllocMode;
  gcPhases?: boolean;
}

/**
 * The one way from a front door's choice to the launch plan's options: the defaults, and stable
 * deopts whether it was asked for by name or typed as its flag (said once on the command line).
 */
export function captureOptionsFor(choice: CaptureChoice): CaptureOptions {
  const extra = choice.extraFlags ?? [];
  return {
    capture: { ...PRESETS[choice.preset].capture },
    samplingIntervalUs: choice.samplingIntervalUs ?? DEFAULT_SAMPLING_INTERVAL_US,
    semiSpaceMB: choice.semiSpaceMB ?? null,
    stableDeopts: (choice.stableDeopts ?? false) || extra.includes(STABLE_DEOPTS_FLAG),
    extraFlags: extra.filter((f) => f !== STABLE_DEOPTS_FLAG),
    allocSamplingBytes: choice.allocSamplingBytes ?? DEFAULT_ALLOC_SAMPLING_BYTES,
    exactAllocSites: choice.exactAllocSites ?? false,
    ...(choice.allocMode === 'survivors' ? { allocMode: 'survivors' as const } : {}),
    ...(choice.gcPhases ? { gcPhases: true } : {}),
  };
}
