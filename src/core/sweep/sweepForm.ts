/**
 * The Semi-space Lab's form (what the sidebar shows) and how it becomes a SweepConfig: every value
 * checked here, with one clear sentence for the first thing that is wrong.
 */
import { UserError } from '../util/errors';
import type { LabForm } from './labForm';
import { requireLoopbackUrl } from './loopback';
import type { SweepConfig, SweepTarget } from './sweepTypes';

export { DEFAULT_LAB_FORM, type LabForm } from './labForm';

/** "16, 32 64" → [16, 32, 64]: whole MB, 1–4096, no duplicates, in the order given. */
export function parseSizes(text: string): number[] {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0) throw new UserError('give at least one semi-space size in MB, e.g. 16, 32, 64');
  const sizes: number[] = [];
  for (const p of parts) {
    const n = Number(p.replace(/mb$/i, ''));
    if (!Number.isInteger(n) || n < 1 || n > 4096) throw new UserError(`semi-space size "${p}" must be a whole number of MB from 1 to 4096`);
    if (sizes.includes(n)) throw new UserError(`semi-space size ${n} MB is listed twice`);
    sizes.push(n);
  }
  return sizes;
}

function whole(value: number, what: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new UserError(`${what} must be a whole number from ${min} to ${max}`);
  return value;
}

function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const i = line.indexOf(':');
    if (i <= 0) throw new UserError(`header line "${line.trim()}" is not "Name: value"`);
    headers[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return headers;
}

export function sweepConfigFromForm(form: LabForm, target: SweepTarget): SweepConfig {
  const url = requireLoopbackUrl(form.url.trim(), 'the request URL');
  const readyValue = form.readyValue.trim();
  const readiness: SweepConfig['readiness'] =
    form.readyKind === 'line'
      ? (() => {
          if (readyValue === '') throw new UserError('say which line the target prints when it is ready, or wait for a URL instead');
          return { kind: 'line' as const, text: readyValue, timeoutMs: 30_000 };
        })()
      : { kind: 'url' as const, url: requireLoopbackUrl(readyValue || url.href, 'the readiness URL').href, timeoutMs: 30_000 };
  const method = form.method.trim().toUpperCase() || 'GET';
  if (!/^[A-Z]+$/.test(method)) throw new UserError(`method "${form.method}" is not an HTTP method`);
  return {
    target,
    readiness,
    request: { url: url.href, method, headers: parseHeaders(form.headers), body: form.body === '' ? null : form.body },
    load: {
      connections: whole(form.connections, 'connections', 1, 1000),
      warmupSeconds: whole(form.warmupSeconds, 'warm-up seconds', 0, 600),
      durationSeconds: whole(form.durationSeconds, 'measured seconds', 1, 3600),
      rate: form.mode === 'rate' ? whole(form.rate, 'the fixed rate (req/s)', 1, 1_000_000) : null,
      timeoutSeconds: 10,
    },
    sizesMB: parseSizes(form.sizes),
    rounds: whole(form.rounds, 'rounds', 1, 30),
    pinMinSemiSpace: form.pinMin,
    onRunFailure: form.onFailure,
  };
}

/** Seconds a sweep will take, roughly: start-up and stop of each run included. */
export function estimateSweepSeconds(config: Pick<SweepConfig, 'sizesMB' | 'rounds' | 'load'>): number {
  return config.sizesMB.length * config.rounds * (config.load.warmupSeconds + config.load.durationSeconds + 3);
}
