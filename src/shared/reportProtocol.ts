/**
 * The one typed message protocol between the report webview and the extension host. Both sides
 * import this file; the host validates everything it receives (a webview is untrusted input).
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
  | { type: 'revealRunFolder' };

/** Checks a message from the webview before the host acts on it. */
export function parseFromReportWebview(value: unknown): FromReportWebview | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'exportHtml':
    case 'revealRunFolder':
      return { type: m.type };
    case 'openSource':
      if (typeof m.url !== 'string' || m.url.length === 0 || m.url.length > 4096) return null;
      if (!isPositiveInt(m.line) || !isPositiveInt(m.column ?? 1)) return null;
      return { type: 'openSource', url: m.url, line: m.line as number, column: (m.column as number | undefined) ?? 1 };
    default:
      return null;
  }
}

function isPositiveInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v < 10_000_000;
}
