/** Byte counts as people read them, for the text report and the pages alike. */

/** Bytes in the largest unit that keeps a number ≥ 1: "512 B", "38.2 KB", "1.21 GB" (1024-based, as V8 counts). */
export function fmtBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  const decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })} ${units[unit]}`;
}
