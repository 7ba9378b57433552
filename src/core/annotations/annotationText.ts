/**
 * The words on the lines and lenses, in one place so the editor, the tests and the README agree.
 * Lens titles may carry codicons (`$(warning)`); after-line texts are plain.
 */
import type { DeoptFunctionLens, DeoptSite, HeatLine, HotFunctionLens, OptimizedFunctionLens } from './annotationTypes';

export function formatMs(ms: number): string {
  if (ms >= 100) return `${Math.round(ms).toLocaleString('en-US')} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(ms >= 1 ? 1 : 2)} ms`;
}

export function formatShare(share: number): string {
  const pct = share * 100;
  return `${pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

const times = (n: number) => (n > 1 ? ` ×${n}` : '');

/** `⚠ deoptimized 3× · wrong map ×2 · not a Smi · reoptimized` */
export function deoptLensTitle(lens: DeoptFunctionLens): string {
  const allHarmless = lens.reasons.every((r) => r.harmless);
  const shown = lens.reasons.slice(0, 3).map((r) => `${r.short}${times(r.count)}`);
  if (lens.reasons.length > 3) shown.push(`+${lens.reasons.length - 3} more`);
  const parts = [`${allHarmless ? '$(info)' : '$(warning)'} deoptimized ${lens.count}×`, ...shown];
  if (allHarmless) parts.push('usually harmless');
  if (lens.reoptimized === true) parts.push('reoptimized');
  if (lens.reoptimized === false) parts.push('stayed deoptimized');
  return parts.join(' · ');
}

/** After-line text at a deopt site: `⚠ wrong map ×2`. */
export function deoptSiteText(sites: readonly DeoptSite[]): string {
  const [first, ...rest] = sites;
  if (!first) return '';
  const more = rest.length > 0 ? ` (+${rest.length} more)` : '';
  return first.harmless ? `${first.short}${times(first.count)} (usually harmless)${more}` : `⚠ ${first.short}${times(first.count)}${more}`;
}

/** After-line heat text: `4.2 ms · 3.1%`. */
export function heatText(line: HeatLine): string {
  return `${formatMs(line.selfMs)} · ${formatShare(line.share)}`;
}

/** `🔥 self 4.2 ms (3.1%) · total 40 ms (13%)` (recursion counted once in total). */
export function hotLensTitle(fn: HotFunctionLens): string {
  return `$(flame) self ${formatMs(fn.selfMs)} (${formatShare(fn.selfShare)}) · total ${formatMs(fn.totalMs)} (${formatShare(fn.totalShare)})`;
}

export function optimizedLensTitle(fn: OptimizedFunctionLens): string {
  const tier = fn.tiers.filter((t) => t === 'Maglev' || t === 'TurboFan').join(', ');
  return `$(check) optimized${tier ? ` (${tier})` : ''}, never deoptimized`;
}

/** Where a site is, as people read it: `shapes.ts:5:16` with the run time when known. */
export function siteWhen(site: DeoptSite): string | null {
  if (site.firstMs === null) return null;
  if (site.lastMs === null || site.lastMs === site.firstMs) return `at ${formatMs(site.firstMs)} into the run`;
  return `from ${formatMs(site.firstMs)} to ${formatMs(site.lastMs)} into the run`;
}
