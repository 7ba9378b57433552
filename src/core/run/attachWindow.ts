/**
 * The attached window: from the moment the GC observer starts watching until profiling stops. GC
 * counts, pauses, max/p95 and the GC share cover only this window, live and final alike.
 *
 * Why a filter is needed: perf_hooks creates a 'gc' entry in a setImmediate after the GC, and hands
 * it to every observer present *then*. When the target already has a GC observer of its own (GC
 * metrics are common) and was busy when V8 Lens attached, collections that ran before the attach
 * reach our new observer too, with their real startTime, before the window. Times are on the
 * target's performance clock (ms since its timeOrigin), like the entries' startTime.
 */
import type { AttachInfo } from '../../shared/model/session';
import type { AttachedGcEvent } from './gcEventsFile';

export interface AttachWindow {
  /** performance.now() in the target just before the observer started watching. */
  startMs: number;
  /** performance.now() in the target when profiling stopped; null while still attached. */
  endMs: number | null;
}

/** When the collection began, on the target's clock (older files have no startMs: end − pause). */
export function gcStartMs(e: AttachedGcEvent): number {
  return e.startMs ?? e.timeMs - e.pauseMs;
}

/** A collection belongs to the window when it began inside it. */
export function inAttachWindow(e: AttachedGcEvent, window: AttachWindow): boolean {
  const start = gcStartMs(e);
  return start >= window.startMs && (window.endMs === null || start < window.endMs);
}

export interface WindowedEvents {
  inside: AttachedGcEvent[];
  /** Reported by the observer but begun before the window (or after it ended). */
  outside: AttachedGcEvent[];
}

/** Splits the observer's reports; without a window (run folders written before it was recorded), all are inside. */
export function splitByWindow(events: readonly AttachedGcEvent[], window: AttachWindow | null | undefined): WindowedEvents {
  if (!window) return { inside: [...events], outside: [] };
  const inside: AttachedGcEvent[] = [];
  const outside: AttachedGcEvent[] = [];
  for (const e of events) (inAttachWindow(e, window) ? inside : outside).push(e);
  return { inside, outside };
}

/** The window's length in ms; null when its end is not known. */
export function windowWallMs(window: AttachWindow | null | undefined): number | null {
  return window && window.endMs !== null ? Math.max(0, window.endMs - window.startMs) : null;
}

/** The window of an attached run's session, when it was recorded. */
export function sessionWindow(attach: AttachInfo | undefined): AttachWindow | null {
  const w = attach?.window;
  return w && Number.isFinite(w.startMs) && Number.isFinite(w.endMs) ? { startMs: w.startMs, endMs: w.endMs } : null;
}

/** One line for the summary's warnings when the observer reported collections outside the window. */
export function outsideWindowNote(outside: readonly AttachedGcEvent[], window: AttachWindow): string | null {
  if (outside.length === 0) return null;
  const before = outside.filter((e) => gcStartMs(e) < window.startMs).length;
  const after = outside.length - before;
  const parts = [before > 0 ? `${before} begun before V8 Lens attached (perf_hooks hands entries over after the GC)` : '', after > 0 ? `${after} after profiling stopped` : ''];
  const longest = outside.reduce((a, b) => (b.pauseMs > a.pauseMs ? b : a));
  return `GC events outside the attached window are left out of the GC figures: ${parts.filter(Boolean).join(', ')}; the longest was a ${longest.pauseMs.toFixed(1)} ms ${longest.type}`;
}
