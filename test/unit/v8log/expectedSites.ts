/**
 * The deopt sites `test/fixtures/programs/deopts.js` is built to produce, and how to find them in a
 * V8 log analysis. Shared by the real-Node test and the stability tool (test/fixtures/v8log/tools).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { displayName } from '../../../src/core/v8log/deoptSummary';
import type { V8Deopt } from '../../../src/core/v8log/types';

export interface ExpectedSite {
  line: number;
  column: number;
  /** The reason on every Node version, unless `reasons` gives one for this major version. */
  reason: string;
  reasons?: Record<string, string>;
  kind: string;
  function: string;
  optimizedFunction?: string;
  inlinedAt: Array<{ line: number; column: number }>;
}

export const DEOPTS_PROGRAM = join(__dirname, '..', '..', 'fixtures', 'programs', 'deopts.js');

export function loadExpectedSites(): ExpectedSite[] {
  return JSON.parse(readFileSync(DEOPTS_PROGRAM.replace(/\.js$/, '.expected.json'), 'utf8')) as ExpectedSite[];
}

export function expectedReason(site: ExpectedSite, nodeMajor: number): string {
  return site.reasons?.[String(nodeMajor)] ?? site.reason;
}

/** True when some deopt in `programPath` matches the site exactly. */
export function siteFound(site: ExpectedSite, deopts: readonly V8Deopt[], programPath: string, nodeMajor: number): boolean {
  return deopts.some(
    (d) =>
      d.position !== null &&
      d.position.url === programPath &&
      d.position.line === site.line &&
      d.position.column === site.column &&
      d.kind === site.kind &&
      d.reason === expectedReason(site, nodeMajor) &&
      displayName(d.function) === site.function &&
      (site.optimizedFunction === undefined || displayName(d.optimizedFunction) === site.optimizedFunction) &&
      d.inlinedAt.length === site.inlinedAt.length &&
      d.inlinedAt.every((p, i) => p.url === programPath && p.line === site.inlinedAt[i]!.line && p.column === site.inlinedAt[i]!.column),
  );
}

export function describeSite(site: ExpectedSite): string {
  const chain = site.inlinedAt.map((p) => ` inlined at ${p.line}:${p.column}`).join('');
  return `${site.line}:${site.column}${chain} ${site.kind} "${site.reason}" in ${site.function}`;
}
