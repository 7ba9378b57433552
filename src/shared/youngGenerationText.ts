/**
 * The young generation in words that say which collector ran it. Pure: the report webview, the CLI
 * text and the analysis share it. The Scavenger copies between two semi-spaces (the new space is
 * two of them); Minor Mark-Sweep (`--minor-ms`, Node 22+) collects one space in place.
 */
import type { YoungGeneration } from './model/summary';

/**
 * The size in `--max-semi-space-size`'s terms: the semi-space (half the new space) for the Scavenger,
 * the one new space for Minor Mark-Sweep; null when no young GC ran or nothing was measured.
 */
export function reachedSemiSpaceMB(young: YoungGeneration): number | null {
  if (young.collector === null || young.newSpaceMB === null) return null;
  return young.collector === 'Scavenger' ? Math.round((young.newSpaceMB / 2) * 1000) / 1000 : young.newSpaceMB;
}

/** "16 MB", "1.5 MB". */
export function fmtYoungMB(mb: number): string {
  return `${mb >= 10 ? mb.toFixed(0) : mb.toFixed(1)} MB`;
}

/** The headline and its detail: "semi-space 16 MB" + "Scavenger, two semi-spaces"; "young generation 56 MB" + "Minor Mark-Sweep, one space". */
export function youngGenerationParts(young: YoungGeneration | undefined, semiSpaceMB: number | null): { what: string; size: string | null; detail: string } {
  if (!young) return { what: 'semi-space', size: semiSpaceMB === null ? null : fmtYoungMB(semiSpaceMB), detail: semiSpaceMB === null ? 'not measured' : 'reached' };
  if (young.collector === null) return { what: 'young generation', size: null, detail: 'no young-generation GC ran' };
  const size = reachedSemiSpaceMB(young);
  return young.collector === 'Scavenger'
    ? { what: 'semi-space', size: size === null ? null : fmtYoungMB(size), detail: 'Scavenger, two semi-spaces' }
    : { what: 'young generation', size: size === null ? null : fmtYoungMB(size), detail: 'Minor Mark-Sweep, one space' };
}

/** "semi-space 16 MB reached (Scavenger, two semi-spaces)", "no young-generation GC ran". */
export function describeYoungGeneration(young: YoungGeneration | undefined, semiSpaceMB: number | null, processes = 1): string {
  const { what, size, detail } = youngGenerationParts(young, semiSpaceMB);
  if (young?.collector === null) return detail;
  if (size === null) return `${what} not measured${young ? ` (${young.collector})` : ''}`;
  const several = processes > 1 ? `, largest of ${processes} processes` : '';
  return young ? `${what} ${size} reached (${detail}${several})` : `${what} ${size} reached`;
}

/**
 * The semi-space among a run's flags: "--max-semi-space-size=64" (wherever it was given: V8 Lens's
 * option, runtimeArgs, NODE_OPTIONS, an npm script's node command) or "semi-space: V8 default"; null
 * when the flags shown beside it already end with that value.
 */
export function semiSpaceFlagText(askedMB: number | null, shownFlags: readonly string[]): string | null {
  if (askedMB === null) return 'semi-space: V8 default';
  let shown: number | null = null;
  shownFlags.forEach((f, i) => {
    const m = /^--max[-_]semi[-_]space[-_]size(?:=(.*))?$/.exec(f);
    if (m) shown = Number(m[1] ?? shownFlags[i + 1]);
  });
  return shown === askedMB ? null : `--max-semi-space-size=${askedMB}`;
}

/** What the user asked for: "--max-semi-space-size=64" or "V8 default". */
export function requestedSemiSpaceText(requestedMB: number | null): string {
  return requestedMB === null ? 'V8 default' : `--max-semi-space-size=${requestedMB}`;
}
