/**
 * What V8's pretenuring decisions mean for the run, in one sentence that the CLI, the report page
 * and the lab share. Tenuring a site changes the GC regime: its objects skip the young generation
 * (fewer, cheaper scavenges) and fill the old one (more Mark-Compacts).
 */
import type { PretenuringSummary } from './model/summary';

export function pretenuringText(p: PretenuringSummary | null | undefined): string {
  if (p === undefined || p === null) return 'pretenuring: not recorded';
  const unread = p.linesSeen > p.linesRead ? ` (${p.linesSeen - p.linesRead} of V8's ${p.linesSeen} pretenuring lines could not be read)` : '';
  if (p.sitesTenured === 0) {
    return p.sitesWeighed === 0
      ? `V8 weighed no allocation site for pretenuring: every object started young${unread}`
      : `V8 weighed ${p.sitesWeighed} allocation site${s(p.sitesWeighed)} and tenured none: every object started young${unread}`;
  }
  const still = p.sitesEndedTenured === p.sitesTenured ? '' : `, ${p.sitesEndedTenured} still at the end (V8 sent ${p.untenured === 1 ? 'one' : p.untenured} back)`;
  return (
    `V8 tenured ${p.sitesTenured} allocation site${s(p.sitesTenured)}${still}: their objects are allocated straight in the old generation, ` +
    `skipping scavenges but filling the old generation (more Mark-Compacts); a run where V8 decides otherwise is in another GC regime${unread}`
  );
}

function s(n: number): string {
  return n === 1 ? '' : 's';
}
