/**
 * "Profile under load": the load's figures and the GC of the same window, on one row above the
 * flame graph, so "GC share while serving 4,000 req/s" is one look. Failed requests are never hidden.
 */
import type { LoadSummary } from '../../src/shared/model/summary';
import { el } from '../common/dom';
import { fmtMs, fmtPct } from '../common/format';

export function renderLoadSection(section: HTMLElement, load: LoadSummary): void {
  section.append(el('h2', { text: 'Under load' }));
  const card = (label: string, value: string, detail: string, key: string, warn = false) =>
    el('div', { className: warn ? 'card card-warn' : 'card', attrs: { 'data-card': key } }, el('div', { className: 'card-label', text: label }), el('div', { className: 'card-value', text: value }), el('div', { className: 'card-detail', text: detail }));
  const f = load.figures;
  const how = `${load.url} · ${load.connections} connections · ${load.rate === null ? 'as fast as it answers' : `${load.rate.toLocaleString('en-US')} req/s fixed`}`;
  if (!f) {
    section.append(el('p', { className: 'empty-note', text: `No load ran: ${load.error ?? 'unknown reason'} (${how}).` }));
    return;
  }
  const gc = load.gcInWindow;
  const cards = el('div', { id: 'load-cards', className: 'cards' },
    card('Throughput', `${Math.round(f.rps).toLocaleString('en-US')} req/s`, `${f.requests.toLocaleString('en-US')} answers in ${f.durationSeconds.toFixed(1)} s`, 'rps'),
    card('Latency p50 / p99', `${f.p50Ms} / ${f.p99Ms} ms`, `mean ${fmtMs(f.meanLatencyMs)} · whole ms (autocannon)`, 'latency'),
    card('Failed requests', f.errors + f.timeouts + f.non2xx === 0 ? '0' : (f.errors + f.timeouts + f.non2xx).toLocaleString('en-US'), `${f.errors} errors · ${f.timeouts} timeouts · ${f.non2xx} non-2xx`, 'failed', load.failedRequests > 0),
    gc
      ? card(
          'GC in the same window',
          // With worker threads the share is the main thread's own (shareOf): its pause over its time in the window.
          gc.shareOf ? fmtPct(gc.shareOf.pauseMs, gc.shareOf.wallMs) : fmtPct(gc.pauseMs, gc.wallShare > 0 ? gc.pauseMs / gc.wallShare : 0),
          `${gc.shareOf ? `of ${gc.shareOf.label}: ${fmtMs(gc.shareOf.pauseMs)} paused · every thread: ` : ''}${gc.scavenges} scavenges · ${gc.markCompacts} Mark-Compact · ${fmtMs(gc.pauseMs)} paused${f.requests > 0 ? ` · ${(gc.pauseMs / (f.requests / 1000)).toFixed(1)} ms per 1k requests` : ''}`,
          'gc-window',
        )
      : null,
  );
  section.append(el('p', { className: 'section-note', text: `${how}; figures of the measured window (after ${load.warmupSeconds} s of warm-up).` }), cards);
}
