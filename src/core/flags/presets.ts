/** What a run collects. The presets are the choices offered in the editor and by `--preset`. */
export interface CaptureSet {
  cpu: boolean;
  gc: boolean;
  deopts: boolean;
}

export const PRESET_IDS = ['cpu-gc-deopts', 'cpu-gc', 'gc', 'cpu', 'deopts'] as const;
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
    label: 'CPU + GC trace + deopts',
    detail: 'CPU profile, every GC event, and where V8 threw optimized code away (the default)',
    capture: { cpu: true, gc: true, deopts: true },
  },
  'cpu-gc': {
    id: 'cpu-gc',
    label: 'CPU + GC trace',
    detail: 'No V8 log: the lightest full picture',
    capture: { cpu: true, gc: true, deopts: false },
  },
  gc: {
    id: 'gc',
    label: 'GC trace only',
    detail: 'Every GC event with its pause and heap sizes; no profiler overhead',
    capture: { cpu: false, gc: true, deopts: false },
  },
  cpu: {
    id: 'cpu',
    label: 'CPU profile only',
    detail: 'Sampling CPU profile',
    capture: { cpu: true, gc: false, deopts: false },
  },
  deopts: {
    id: 'deopts',
    label: 'Deopts only',
    detail: 'The V8 deoptimization log',
    capture: { cpu: false, gc: false, deopts: true },
  },
};

export const DEFAULT_PRESET: PresetId = 'cpu-gc-deopts';
export const DEFAULT_SAMPLING_INTERVAL_US = 1000;

export function isPresetId(value: string): value is PresetId {
  return (PRESET_IDS as readonly string[]).includes(value);
}
