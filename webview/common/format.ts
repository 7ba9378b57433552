/** Number, time and source-location formatting for the report and compare pages (en-US, like the CLI's text report). */

export function fmtNum(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return '–';
  return numberFormat(decimals).format(value);
}

/**
 * One formatter per number of decimals: toLocaleString with options builds a new one on every
 * call, a quarter of the time to draw a report's first frame. The same text either way.
 */
const numberFormats = new Map<number, Intl.NumberFormat>();
function numberFormat(decimals: number): Intl.NumberFormat {
  let format = numberFormats.get(decimals);
  if (format === undefined) numberFormats.set(decimals, (format = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })));
  return format;
}

/** Milliseconds with a precision that suits the size: 0.042 ms, 1.35 ms, 123.4 ms, 12,345 ms. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  const abs = Math.abs(ms);
  const decimals = abs >= 1000 ? 0 : abs >= 100 ? 1 : abs >= 1 ? 2 : 3;
  return `${fmtNum(ms, decimals)} ms`;
}

/** A wall-clock duration: ms below a second, seconds above. */
export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${fmtNum(ms, 1)} ms`;
  if (ms < 120_000) return `${fmtNum(ms / 1000, 2)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${fmtNum((ms - minutes * 60_000) / 1000, 0)} s`;
}

export function fmtPct(part: number, whole: number, decimals = 1): string {
  return whole > 0 ? `${fmtNum((part / whole) * 100, decimals)}%` : '–';
}

export function fmtMB(mb: number): string {
  return `${fmtNum(mb, mb >= 100 ? 0 : 1)} MB`;
}

/** A profile url (absolute path, file:// URL, node:internal/…) as a path. */
export function urlToPath(url: string): string {
  if (url.startsWith('file://')) {
    try {
      return decodeURIComponent(new URL(url).pathname).replace(/^\/([A-Za-z]:\/)/, '$1');
    } catch {
      return url;
    }
  }
  return url;
}

export interface LocationContext {
  /** The run's working folder: paths under it are shown relative to it. */
  cwd: string | null;
}

/** `file:line:col` for display, shortened under the run's folder; `full` is the unshortened form for a title. */
export function formatLocation(url: string, line: number, column: number, ctx: LocationContext): { text: string; full: string } {
  const path = urlToPath(url);
  let shown = path;
  const cwd = ctx.cwd?.replace(/[\\/]+$/, '');
  if (cwd && (path.startsWith(`${cwd}/`) || path.startsWith(`${cwd}\\`))) shown = path.slice(cwd.length + 1);
  else if (!ctx.cwd && /^([A-Za-z]:)?[\\/]/.test(path)) {
    // No run folder to be relative to: keep the last three segments, the full path goes in the title.
    const parts = path.split(/[\\/]/);
    if (parts.length > 4) shown = `…/${parts.slice(-3).join('/')}`;
  }
  const suffix = line > 0 ? (column > 0 ? `:${line}:${column}` : `:${line}`) : '';
  return { text: shown + suffix, full: path + suffix };
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
