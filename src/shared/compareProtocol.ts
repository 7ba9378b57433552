/**
 * The typed message protocol between the compare webview and the extension host. Both sides
 * import this file, and each checks what it receives: the host everything from the webview (a
 * webview is untrusted input), the webview what reaches its window as a message.
 */
import type { CompareModel, CompareSide } from './model/compareModel';

export type {
  CompareModel,
  CompareNode,
  CompareNormalization,
  CompareRunInfo,
  CompareSide,
  AllocatorChange,
  AllocatorChanges,
  FunctionChange,
  LoadComparison,
  MetricRow,
  MetricVerdict,
  MovedFrom,
  MovedFunction,
  TopChanges,
} from './model/compareModel';

/** Host → webview. */
export type ToCompareWebview =
  | { type: 'model'; model: CompareModel }
  | { type: 'status'; text: string };

/** Webview → host. */
export type FromCompareWebview =
  | { type: 'ready' }
  /** Open a source position of run A or B (paths are resolved against that run); 1-based. */
  | { type: 'openSource'; side: CompareSide; url: string; line: number; column: number }
  /** Open one run's own report. */
  | { type: 'openReport'; side: CompareSide }
  /** Compare the other way round (B becomes the base). */
  | { type: 'swap' };

/** Checks a message to the webview before the page acts on it; the (big) model is checked to be an object. */
export function parseToCompareWebview(value: unknown): ToCompareWebview | null {
  if (!isRecord(value)) return null;
  switch (value.type) {
    case 'model':
      return isRecord(value.model) ? { type: 'model', model: value.model as unknown as CompareModel } : null;
    case 'status':
      return typeof value.text === 'string' ? { type: 'status', text: value.text } : null;
    default:
      return null;
  }
}

/** Checks a message from the webview before the host acts on it. */
export function parseFromCompareWebview(value: unknown): FromCompareWebview | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'swap':
      return { type: m.type };
    case 'openReport':
      return isSide(m.side) ? { type: 'openReport', side: m.side } : null;
    case 'openSource':
      if (!isSide(m.side)) return null;
      if (typeof m.url !== 'string' || m.url.length === 0 || m.url.length > 4096) return null;
      if (!isPositiveInt(m.line) || !isPositiveInt(m.column ?? 1)) return null;
      return { type: 'openSource', side: m.side, url: m.url, line: m.line as number, column: (m.column as number | undefined) ?? 1 };
    default:
      return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isSide(v: unknown): v is CompareSide {
  return v === 'base' || v === 'other';
}

function isPositiveInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v < 10_000_000;
}
