/**
 * The words on the lines and lenses, in one place so the editor, the tests and the README agree.
 * Lens titles may carry codicons (`$(warning)`); after-line texts are plain.
 */
import { fmtBytes } from '../../shared/formatBytes';
import type { AllocFunctionLens, AllocRunFacts, DeoptFunctionLens, DeoptSite, HeatLine, HotFunctionLens, OptimizedFunctionLens, SurvivorFunctionLens } from './annotationTypes';

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
  const total = `total ${formatMs(fn.totalMs)} (${formatShare(fn.totalShare)})`;
  // "self 0.00 ms (0.0%)" says nothing: a function whose time is all in its callees says that.
  // Where it ended among V8's tiers ("TurboFan", "deoptimized"); the tooltip has the story. Unknown says nothing.
  const tier = fn.tiers && !fn.tiers.now.startsWith('unknown') ? ` · ${fn.tiers.now}` : '';
  if (fn.selfMs < 0.005) return `$(flame) ${total}, all in what it calls${tier}`;
  return `$(flame) self ${formatMs(fn.selfMs)} (${formatShare(fn.selfShare)}) · ${total}${tier}`;
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

/**
 * `allocates 410 MB/s · 38% of young garbage · 12.3 KB/request`: the run's rate split by the
 * function's share (its bytes when the profile's duration is unknown), per request under load.
 */
export function allocLensTitle(fn: AllocFunctionLens): string {
  const amount = fn.bytesPerSecond !== null ? `${fmtBytes(fn.bytesPerSecond)}/s` : fmtBytes(fn.selfBytes);
  const parts = [`$(trash) allocates ${amount}`, `${formatShare(fn.share)} of young garbage`];
  if (fn.bytesPerRequest !== null) parts.push(`${fmtBytes(fn.bytesPerRequest)}/request`);
  return parts.join(' · ');
}

/** The lens's tooltip: plain text (a CodeLens takes no markdown); the line's hover says the rest. */
export function allocLensTooltip(fn: AllocFunctionLens): string {
  return `${fn.name} allocated ${fmtBytes(fn.selfBytes)} in its own body, ${formatShare(fn.share)} of what the run allocated. Hover its first line for what that costs and the usual fixes; click for the report.`;
}

/**
 * `keeps 62% of what it allocates past a young GC: copied, then promoted · ≈ 12 ms of scavenge copying (est.)`;
 * without a rate, its part of all survivors.
 */
export function survivorLensTitle(fn: SurvivorFunctionLens): string {
  const kept = fn.survivalRate !== null ? `keeps ${formatShare(Math.min(1, fn.survivalRate))} of what it allocates past a young GC` : `${formatShare(fn.share)} of what outlived young GCs`;
  const copy = fn.copyMsEstimate !== null ? ` · ≈ ${formatMs(fn.copyMsEstimate)} of scavenge copying (est.)` : '';
  return `$(history) ${kept}: copied, then promoted${copy}`;
}

/** The survivors lens's tooltip: what the figures are, where they come from, and their limit. */
export function survivorLensTooltip(fn: SurvivorFunctionLens): string {
  const rate = fn.survivalRate !== null ? `, ${formatShare(Math.min(1, fn.survivalRate))} of what it allocated in the run` : '';
  return (
    `${fn.name}: no young GC freed ${fmtBytes(fn.bytes)} of its objects in the survivors pass (${formatShare(fn.share)} of all survivors${rate}). ` +
    'A scavenge costs what it copies: these objects are copied, and promoted to the old generation when they survive a second one. ' +
    'Objects allocated after the last young GC count as survivors too. The copy time is its share of the young-GC pause: an estimate. Click for the report.'
  );
}

/** The fixes that cut allocation in JavaScript, most common first. */
export const ALLOC_FIXES: readonly string[] = [
  'Reuse objects and buffers across calls instead of making new ones each time (a pool, one preallocated Buffer or typed array).',
  'Avoid intermediate arrays: each step of a map/filter/slice/concat chain makes a new array; one loop makes none.',
  'Avoid closures and object literals created per call in hot paths: hoist them out, or pass the values as arguments.',
  'Avoid string concatenation in loops: collect the parts and join once, or write them to the stream as they come.',
  'Pre-size arrays whose length is known instead of growing them with push.',
  'Avoid JSON round trips (JSON.parse(JSON.stringify(x)) to copy, or to read one field): copy or read only what is needed.',
];

/**
 * The hover on an allocating function's first line, as markdown: what it allocated, what that costs
 * the young GC (its share of the pause when the run can estimate it), V8's inlining caveat, the
 * usual fixes. Names and V8's sentences are data: escaped, never read as markdown.
 */
export function allocHoverMarkdown(fn: AllocFunctionLens, run: AllocRunFacts, runLabel: string): string {
  const rates = [fn.bytesPerSecond !== null ? `${fmtBytes(fn.bytesPerSecond)}/s` : null, fn.bytesPerRequest !== null ? `${fmtBytes(fn.bytesPerRequest)} per request` : null].filter((r) => r !== null);
  const blocks = [
    `**V8 Lens · allocations: ${escapeMarkdown(fn.name)}**`,
    escapeMarkdown(
      `Allocated ${fmtBytes(fn.selfBytes)} in its own body (not in the functions it calls): ${formatShare(fn.share)} of the ${fmtBytes(run.totalBytes)} the run allocated` +
        `${rates.length > 0 ? `, ${rates.join(', ')}` : ''}. V8 sampled one allocation every ${fmtBytes(run.samplingIntervalBytes)} and kept the garbage: the bytes are its estimates.`,
    ),
    '**What it costs:** ' +
      escapeMarkdown(
        'allocating is cheap, collecting is not free. New objects fill the young generation; when it is full V8 pauses the main thread for a young GC (a scavenge), ' +
          'which copies whatever is still alive. More garbage means more young GCs, and objects that stay alive across two of them move to the old generation, which the slower Mark-Compact collects.',
      ),
  ];
  if (fn.youngGcPauseMsEstimate !== null) blocks.push(pauseEstimate(fn, fn.youngGcPauseMsEstimate, run));
  if (run.inliningCaveat !== null) blocks.push(`⚠ ${escapeMarkdown(run.inliningCaveat)}`);
  if (run.exactSites) blocks.push(escapeMarkdown('Sampled with inlining off (exact allocation sites): the run was slower than the program usually is, so its rates are not the usual ones.'));
  blocks.push(`**What usually cuts it:**\n\n${ALLOC_FIXES.map((f) => `- ${escapeMarkdown(f)}`).join('\n')}`);
  blocks.push(escapeMarkdown(`From ${runLabel}.`));
  return blocks.join('\n\n');
}

function pauseEstimate(fn: AllocFunctionLens, estimateMs: number, run: AllocRunFacts): string {
  const gcs = run.youngGcPauseMs !== null && run.youngGcs !== null ? `the ${formatMs(run.youngGcPauseMs)} that the ${run.youngGcs.toLocaleString('en-US')} young GCs of the same time paused the main thread` : 'the young-GC pause of the same time';
  return `**Its share of the young-GC pause: about ${formatMs(estimateMs)}** (_estimate_: ` +
    escapeMarkdown(`its ${formatShare(fn.share)} of the allocated bytes × ${gcs}; it assumes this function's objects die as young as everyone else's)`);
}

/** Text as markdown shows it verbatim (VS Code's appendText escapes the same characters). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-!~|<>]/g, '\\$&');
}
