/** What a run collects. The presets are the choices offered in the editor and by `--preset`. */
export interface CaptureSet {
  cpu: boolean;
  gc: boolean;
  deopts: boolean;
  /** Allocation sampling with the garbage kept: which functions make what the GC collects. */
  alloc: boolean;
}

export const PRESET_IDS = ['cpu-gc-deopts', 'cpu-gc-alloc', 'cpu-gc', 'gc', 'cpu', 'deopts'] as const;
export type PresetId = (typeof PRESET_IDS)[number];

export interface Preset {
  id: PresetId;
  label: string;
  detail: string;
  capture: CaptureSet;
}

export const PRESETS: Record<PresetId, Preset> = {
  'cpu-gc-deopts': {
    id: 'cpu-gc-deopts',
    // The id predates allocations; kept so that settings and scripts naming it still work. What each
    // preset costs, per kind of program: npm run bench (BENCH_ONLY=overhead) and the README.
    label: 'CPU + GC trace + deopts + allocations',
    detail: 'CPU profile, every GC event, where V8 threw optimized code away, and who allocates what the GC collects (the default)',
    capture: { cpu: true, gc: true, deopts: true, alloc: true },
  },
  'cpu-gc-alloc': {
    id: 'cpu-gc-alloc',
    label: 'CPU + GC trace + allocations',
    detail: 'Which functions allocate what the GC collects (sampled, garbage included), beside the CPU profile and every GC event',
    capture: { cpu: true, gc: true, deopts: false, alloc: true },
  },
  'cpu-gc': {
    id: 'cpu-gc',
    label: 'CPU + GC trace',
    detail: 'No V8 log: the lightest full picture',
    capture: { cpu: true, gc: true, deopts: false, alloc: false },
  },
  gc: {
    id: 'gc',
    label: 'GC trace only',
    detail: 'Every GC event with its pause and heap sizes; no profiler overhead',
    capture: { cpu: false, gc: true, deopts: false, alloc: false },
  },
  cpu: {
    id: 'cpu',
    label: 'CPU profile only',
    detail: 'Sampling CPU profile',
    capture: { cpu: true, gc: false, deopts: false, alloc: false },
  },
  deopts: {
    id: 'deopts',
    label: 'Deopts only',
    detail: 'The V8 deoptimization log',
    capture: { cpu: false, gc: false, deopts: true, alloc: false },
  },
};

export const DEFAULT_PRESET: PresetId = 'cpu-gc-deopts';
export const DEFAULT_SAMPLING_INTERVAL_US = 1000;
/**
 * Bytes between allocation samples: 2 MB. Every sample stops V8's inline allocation, walks the stack
 * and copies every frame's function name, about 4 µs each (perf: SampleObject, AddStack), so the
 * cost grows with the rate a program allocates: on the bench's allocation-heavy script (about 3 GB
 * a second, a fixed amount of work) the default preset cost 6.4 points more than `node --cpu-prof`
 * alone at 512 KB (`--heap-prof`'s default) and was level with CPU + GC alone at 2 MB and at 4 MB
 * (npm run bench, BENCH_ONLY=overhead, BENCH_OVERHEAD_ALLOC_INTERVALS). A service allocating
 * 300 MB/s still gets 150 samples a second, the rate Java Flight Recorder's allocation sampling
 * keeps by default; `--alloc-interval` (the `v8Lens.allocations.samplingIntervalBytes` setting)
 * goes finer.
 */
export const DEFAULT_ALLOC_SAMPLING_BYTES = 2 * 1024 * 1024;
/** What a user may choose: from 256 B (slow, fine-grained) to 64 MB (a handful of samples). */
export const ALLOC_SAMPLING_BYTES_RANGE = { min: 256, max: 64 * 1024 * 1024 } as const;


export function isPresetId(value: string): value is PresetId {
  return (PRESET_IDS as readonly string[]).includes(value);
}
