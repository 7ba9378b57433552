/**
 * Allocations beside the GC in words, the same in the text report, the report page and the source
 * lenses. Pure.
 */
import { fmtBytes } from './formatBytes';
import type { AllocGcLink } from './model/summary';

/** "160 young GCs (424 ms of pause) while sampling, one every 10.5 MB allocated (young generation 16.0 MB)". */
export function youngGcCadenceText(link: AllocGcLink): string {
  return `${link.youngGcs} young GC${link.youngGcs === 1 ? '' : 's'} (${fmtMs(link.youngGcPauseMs)} of pause) while sampling${cadence(link, ', ')}`;
}

/** The same without the count, for a card under it: "424 ms of pause; one every 10.5 MB allocated (young generation 16.0 MB)". */
export function youngGcCadenceDetail(link: AllocGcLink): string {
  return `${fmtMs(link.youngGcPauseMs)} of pause${cadence(link, '; ')}`;
}

function cadence(link: AllocGcLink, separator: string): string {
  if (link.bytesPerYoungGc === null) return '';
  const young = link.youngGenerationBytes === null ? '' : ` (young generation ${fmtBytes(link.youngGenerationBytes)})`;
  return `${separator}one every ${fmtBytes(link.bytesPerYoungGc)} allocated${young}`;
}

/** "V8's GC trace accounts for 1.64 GB (sampled × 1.00)"; null when the trace saw no GC in that time. */
export function traceAgreementText(link: AllocGcLink): string | null {
  if (link.traceAllocatedBytes === null || link.ratio === null) return null;
  return `V8's GC trace accounts for ${fmtBytes(link.traceAllocatedBytes)} (sampled × ${link.ratio.toFixed(2)})`;
}

/** "≈ 324 ms" of young-GC pause: an estimate, and every caller says so beside it. */
export function pauseEstimateText(ms: number): string {
  return `≈ ${fmtMs(ms)}`;
}

/** What the pause estimate is, for a title or a hover. */
export const PAUSE_ESTIMATE_NOTE = 'Estimate: the function\'s share of all bytes allocated × the young-GC pause of the same time (most sampled bytes die young; the pause really grows with what survives).';

function fmtMs(ms: number): string {
  return ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(ms >= 10 ? 1 : 2)} ms`;
}
