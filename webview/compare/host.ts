/**
 * The compare webview's side of its protocol (src/shared/compareProtocol.ts). In VS Code,
 * `acquireVsCodeApi` is the real host; a page without it (or with <html data-standalone>) has no
 * host: nothing can open a file, a report, or swap the runs there.
 */
import type { CompareSide, FromCompareWebview, ToCompareWebview } from '../../src/shared/compareProtocol';
import { canOpen } from '../common/host';

export { canOpen };

interface VsCodeApi {
  postMessage(message: FromCompareWebview): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface CompareHost {
  readonly connected: boolean;
  post(message: FromCompareWebview): void;
  /** Opens a position of run A or B when the host can; returns whether it was sent. */
  openSource(side: CompareSide, url: string, line: number, column: number): boolean;
}

export function connectHost(onMessage: (message: ToCompareWebview) => void): CompareHost {
  const standalone = document.documentElement.hasAttribute('data-standalone');
  const api: VsCodeApi | null = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : null;
  window.addEventListener('message', (event: MessageEvent) => {
    const message = parseToWebview(event.data);
    if (message) onMessage(message);
  });
  const post = (message: FromCompareWebview) => api?.postMessage(message);
  const connected = api !== null && !standalone;
  return {
    connected,
    post,
    openSource(side, url, line, column) {
      if (!connected || !canOpen(url, line)) return false;
      post({ type: 'openSource', side, url, line, column: column > 0 ? column : 1 });
      return true;
    },
  };
}

function parseToWebview(data: unknown): ToCompareWebview | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.type === 'model' && typeof m.model === 'object' && m.model !== null) return m as unknown as ToCompareWebview;
  if (m.type === 'status' && typeof m.text === 'string') return { type: 'status', text: m.text };
  return null;
}
