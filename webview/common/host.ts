/**
 * Every webview's side of its host (report, compare, lab), typed by the page's protocol in
 * src/shared. In VS Code, `acquireVsCodeApi` is the real host; in the standalone HTML export
 * (src/core/report/reportPage.ts) a small shim provides it and answers `ready` with the embedded
 * model, and <html data-standalone> hides what needs the host. A page without either has no host.
 *
 * Whatever reaches the window as a message goes through the page's parser (the protocol's
 * `parseTo…`) first: what does not pass is dropped, never handed to the page.
 */

interface VsCodeApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** A page's message asking the host to open a source position (url as in the profile, 1-based line and column). */
type OpenSourceMessage<FromPage> = Extract<FromPage, { type: 'openSource'; url: string; line: number; column: number }>;

export interface Host<FromPage> {
  /** False in the standalone export and without a webview API: nothing can open a file or a folder there. */
  readonly connected: boolean;
  /** Sends a message to the host (to the export's shim in the standalone file; nowhere without an API). */
  post(message: FromPage): void;
  /** Sends an `openSource` message when the host can open that position; returns whether it was sent. */
  openSource(message: OpenSourceMessage<FromPage>): boolean;
}

export function connectHost<ToPage, FromPage>(parse: (data: unknown) => ToPage | null, onMessage: (message: ToPage) => void): Host<FromPage> {
  const standalone = document.documentElement.hasAttribute('data-standalone');
  const api: VsCodeApi | null = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : null;
  window.addEventListener('message', (event: MessageEvent) => {
    const message = parse(event.data);
    if (message) onMessage(message);
  });
  const post = (message: FromPage) => api?.postMessage(message);
  const connected = api !== null && !standalone;
  return {
    connected,
    post,
    openSource(message) {
      if (!connected || !canOpen(message.url, message.line)) return false;
      post({ ...message, column: message.column > 0 ? message.column : 1 });
      return true;
    },
  };
}

/** A position the host can open: a script url and a 1-based line (native frames have neither). */
export function canOpen(url: string, line: number): boolean {
  return url.length > 0 && url.length <= 4096 && Number.isInteger(line) && line >= 1;
}
