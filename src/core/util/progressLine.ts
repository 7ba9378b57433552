/**
 * A one-line progress indicator for long CLI work (a big report, an export, a sweep): on a
 * terminal, `v8-lens: <what> · 41% [########------------] · 12.3 s`, redrawn in place and erased
 * when done; nothing at all when stderr is not a terminal (CI logs, pipes), and nothing for work
 * that ends within `delayMs`, so quick commands stay quiet.
 */
export interface ProgressLine {
  /** What is happening now, and how far (0–1) when that is known. */
  update(text: string, fraction?: number | null): void;
  /** Erases the line (before printing anything else, and at the end). */
  clear(): void;
  done(): void;
}

interface Terminal {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const BAR = 20;

export function progressLine(stream: Terminal, options: { delayMs?: number; now?: () => number } = {}): ProgressLine {
  if (!stream.isTTY) return { update() {}, clear() {}, done() {} };
  const now = options.now ?? Date.now;
  const start = now();
  const delayMs = options.delayMs ?? 500;
  let text = '';
  let fraction: number | null = null;
  let shown = false;
  let finished = false;
  const render = () => {
    if (finished || now() - start < delayMs) return;
    const parts = [`v8-lens: ${text}`];
    if (fraction !== null && Number.isFinite(fraction)) {
      const f = Math.min(1, Math.max(0, fraction));
      const filled = Math.round(f * BAR);
      parts.push(`${Math.round(f * 100)}% [${'#'.repeat(filled)}${'-'.repeat(BAR - filled)}]`);
    }
    parts.push(`${((now() - start) / 1000).toFixed(1)} s`);
    const line = parts.join(' · ').slice(0, Math.max(20, (stream.columns ?? 100) - 1));
    stream.write(`\r\x1b[2K${line}`);
    shown = true;
  };
  const timer = setInterval(render, 250);
  timer.unref?.();
  return {
    update(next, f = null) {
      text = next;
      fraction = f;
      render();
    },
    clear() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
    done() {
      finished = true;
      clearInterval(timer);
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
