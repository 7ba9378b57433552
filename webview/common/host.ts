/**
 * The webview's side of the report protocol (src/shared/reportProtocol.ts). In VS Code,
 * `acquireVsCodeApi` is the real host; in the standalone HTML export a small shim provides it and
 * answers `ready` with the embedded model, and <html data-standalone> hides what needs the host.
 */
import type { FromReportWebview, ToReportWebview } from '../../src/shared/reportProtocol';

interface VsCodeApi {
  postMessage(message: FromReportWebview): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface Host {
  /** False in the standalone export: nothing can open a file or a folder there. */
  readonly connected: boolean;
  post(message: FromReportWebview): void;
  /** Opens a profile position when the host can; returns whether it was sent. */
  openSource(url: string, line: number, column: number): boolean;
}

export function connectHost(onMessage: (message: ToReportWebview) => void): Host {
  const standalone = document.documentElement.hasAttribute('data-standalone');
  const api: VsCodeApi | null = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : null;
  window.addEventListener('message', (event: MessageEvent) => {
    const message = parseToWebview(event.data);
    if (message) onMessage(message);
  });
  const post = (message: FromReportWebview) => api?.postMessage(message);
  return {
    connected: api !== null && !standalone,
    post,
    openSource(url, line, column) {
      if (!api || standalone || !canOpen(url, line)) return false;
      post({ type: 'openSource', url, line, column: column > 0 ? column : 1 });
      return true;
    },
  };
}

/** A position the host can open: a script url and a 1-based line (native frames have neither). */
export function canOpen(url: string, line: number): boolean {
  return url.length > 0 && url.length <= 4096 && Number.isInteger(line) && line >= 1;
}

function parseToWebview(data: unknown): ToReportWebview | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m.type === 'model' && typeof m.model === 'object' && m.model !== null) return m as unknown as ToReportWebview;
  if (m.type === 'status' && typeof m.text === 'string') return { type: 'status', text: m.text };
  if (m.type === 'live' && typeof m.model === 'object' && m.model !== null && typeof m.live === 'object' && m.live !== null) return m as unknown as ToReportWebview;
  return null;
}
