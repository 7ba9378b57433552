/**
 * The one typed message protocol between the report webview and the extension host. Both sides
 * import this file, and each checks what it receives: the host everything from the webview (a
 * webview is untrusted input), the webview what reaches its window as a message.
 */
import type { LiveAttachStatus, ReportModel } from './model/reportModel';

export type { FlameNode, GcPoint, LiveAttachStatus, ProcessView, ReportModel } from './model/reportModel';
export type { FrameCategory } from './frameCategory';

/** Host → webview. */
export type ToReportWebview =
  | { type: 'model'; model: ReportModel }
  /** Live updates while a run is going. */
  | { type: 'status'; text: string }
  /** While attached: the GC so far (the model has no CPU profile yet), redrawn every second. */
  | { type: 'live'; model: ReportModel; live: LiveAttachStatus };


/** Webview → host. */
export type FromReportWebview =
  | { type: 'ready' }
  /** Open a source position; url as in the profile (path or file:// URL), line/column 1-based. */
  | { type: 'openSource'; url: string; line: number; column: number }
  | { type: 'exportHtml' }
  | { type: 'revealRunFolder' }
  /** "Confirm in the Semi-space Lab": the lab sweeps the sizes this run's prediction names. */
  | { type: 'confirmPrediction' };

/**
 * Checks a message to the webview before the page acts on it. The models are big: they are
 * checked to be objects, and the page reads them as text; everything else field by field.
 */
export function parseToReportWebview(value: unknown): ToReportWebview | null {
  if (!isRecord(value)) return null;
  switch (value.type) {
    case 'model':
      return isRecord(value.model) ? { type: 'model', model: value.model as unknown as ReportModel } : null;
    case 'status':
      return typeof value.text === 'string' ? { type: 'status', text: value.text } : null;
    case 'live': {
      const live = parseLiveAttachStatus(value.live);
      return isRecord(value.model) && live ? { type: 'live', model: value.model as unknown as ReportModel, live } : null;
    }
    default:
      return null;
  }
}

function parseLiveAttachStatus(value: unknown): LiveAttachStatus | null {
  if (!isRecord(value)) return null;
  const { pid, elapsedSeconds, gcEvents, scavenges, scavengesPerSecond, heapUsedMB, state } = value;
  if (pid !== null && typeof pid !== 'number') return null;
  if (heapUsedMB !== null && typeof heapUsedMB !== 'number') return null;
  if (typeof elapsedSeconds !== 'number' || typeof gcEvents !== 'number' || typeof scavenges !== 'number' || typeof scavengesPerSecond !== 'number') return null;
  if (state !== 'profiling' && state !== 'saving') return null;
  return { pid, elapsedSeconds, gcEvents, scavenges, scavengesPerSecond, heapUsedMB, state };
}

/** Checks a message from the webview before the host acts on it. */
export function parseFromReportWebview(value: unknown): FromReportWebview | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'exportHtml':
    case 'revealRunFolder':
    case 'confirmPrediction':
      return { type: m.type };
    case 'openSource':
      if (typeof m.url !== 'string' || m.url.length === 0 || m.url.length > 4096) return null;
      if (!isPositiveInt(m.line) || !isPositiveInt(m.column ?? 1)) return null;
      return { type: 'openSource', url: m.url, line: m.line as number, column: (m.column as number | undefined) ?? 1 };
    default:
      return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isPositiveInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v < 10_000_000;
}
