/** Orders strings by code unit, the same on every machine (no locale): stable output for tables and files. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
