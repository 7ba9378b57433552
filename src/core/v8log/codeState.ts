/**
 * `code-creation` state markers. V8 writes `~` (Ignition bytecode), `^` (Sparkplug), `+` (Maglev),
 * `*` (TurboFan), and an empty marker for bytecode of a function whose optimization is disabled.
 * Node 24 (V8 13) appends `'` to context-specialized Maglev/TurboFan code (`+'`, `*'`).
 * Anything else is kept as an unknown tier: a new marker must not break the reader.
 */
import type { CodeState, Tier } from './types';

const TIER_BY_MARKER: Record<string, Tier> = {
  '': 'interpreted',
  '~': 'interpreted',
  '^': 'sparkplug',
  '+': 'maglev',
  '*': 'turbofan',
};

/** States are shared (there are only a handful of markers): a log has a million code objects. */
const interned = new Map<string, CodeState>();

export function parseCodeState(marker: string): CodeState {
  let state = interned.get(marker);
  if (state === undefined) {
    state = readMarker(marker);
    if (interned.size < 64) interned.set(marker, state);
  }
  return state;
}

function readMarker(marker: string): CodeState {
  const m = /^([~^+*]?)(')?$/.exec(marker);
  if (m === null) return { marker, tier: 'unknown', optimizationDisabled: false, contextSpecialized: false };
  const base = m[1] ?? '';
  return {
    marker,
    tier: TIER_BY_MARKER[base] ?? 'unknown',
    optimizationDisabled: marker === '',
    contextSpecialized: m[2] !== undefined,
  };
}

export function isOptimizedTier(tier: Tier): boolean {
  return tier === 'maglev' || tier === 'turbofan';
}

const TIER_LABELS: Record<Tier, string> = {
  interpreted: 'Ignition',
  sparkplug: 'Sparkplug',
  maglev: 'Maglev',
  turbofan: 'TurboFan',
  unknown: 'unknown',
};

/** The name we show for a tier ("TurboFan", "Maglev", …). */
export function tierLabel(tier: Tier): string {
  return TIER_LABELS[tier];
}

const TIER_ORDER: Tier[] = ['interpreted', 'sparkplug', 'maglev', 'turbofan', 'unknown'];

/** Lowest tier first. */
export function sortTiers(tiers: readonly Tier[]): Tier[] {
  return [...tiers].sort((a, b) => TIER_ORDER.indexOf(a) - TIER_ORDER.indexOf(b));
}
