/**
 * When a run started, written the same everywhere (the report's tab, Sessions, the status bar, the
 * lenses): local time, 24-hour, to the second, so one run reads "17:52:14" in every place and two
 * runs a minute apart never look alike. Pure.
 */

/** "17:52:14". */
export function runClock(at: string | number | Date): string {
  const d = new Date(at);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** "2026-11-23 17:52:14". */
export function runDateTime(at: string | number | Date): string {
  const d = new Date(at);
  const day = [d.getFullYear(), d.getMonth() + 1, d.getDate()].map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0')).join('-');
  return `${day} ${runClock(d)}`;
}
