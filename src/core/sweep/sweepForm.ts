/**
 * The Semi-space Lab's form (what the sidebar shows) and how it becomes a SweepConfig: every value
 * checked here, with one clear sentence for the first thing that is wrong. Whether the flag exists
 * and takes a number is checked against the target's Node when the sweep starts (runSweep).
 */
import { UserError } from '../util/errors';
import { SWEEP_DEFAULTS, type LabForm } from '../../shared/labForm';
import { requireLoopbackUrl } from '../load/loopback';
import { parseSweepFlagName } from './sweepFlagCheck';
import { formatSetting, sweepFlagInfo } from '../../shared/sweepFlags';
import { SEMI_SPACE_FLAG, hasProfileRounds, sweepValues, type SweepConfig, type SweepTarget } from '../../shared/model/sweep';

export { DEFAULT_LAB_FORM, labFormFromSaved, upgradeLabForm, type LabForm } from '../../shared/labForm';

/** The largest value of a size flag the form takes, MB (64 GB). */
const MAX_FORM_SIZE_MB = 65536;

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

/**
 * The values of a flag from the form, in the order given, no duplicates: whole MB for the size
 * flags (an "MB" suffix is fine; 1–4096 for the semi-space, as always, 1–65536 for the others),
 * any number for the rest (V8's own check of the type comes when the sweep starts).
 */
export function parseValues(text: string, flag: string): number[] {
  if (flag === SEMI_SPACE_FLAG) return parseSizes(text);
  const mb = sweepFlagInfo(flag).unit === 'MB';
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0) throw new UserError(`give at least one value of --${flag}, e.g. ${sweepFlagInfo(flag).suggested || '256, 512'}`);
  const values: number[] = [];
  for (const p of parts) {
    const n = Number(mb ? p.replace(/mb$/i, '') : p);
    if (mb && (!Number.isInteger(n) || n < 1 || n > MAX_FORM_SIZE_MB)) {
      throw new UserError(`--${flag} value "${p}" must be a whole number of MB from 1 to ${MAX_FORM_SIZE_MB}`);
    }
    if (!mb && (p.trim() === '' || !Number.isFinite(n))) throw new UserError(`--${flag} value "${p}" is not a number`);
    if (values.includes(n)) throw new UserError(`${formatSetting(flag, n)} is listed twice`);
    values.push(n);
  }
  return values;
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
          return { kind: 'line' as const, text: readyValue, timeoutMs: SWEEP_DEFAULTS.readyTimeoutSeconds * 1000 };
        })()
      : { kind: 'url' as const, url: requireLoopbackUrl(readyValue || url.href, 'the readiness URL').href, timeoutMs: SWEEP_DEFAULTS.readyTimeoutSeconds * 1000 };
  const flag = (() => {
    try {
      return parseSweepFlagName(form.flag ?? SEMI_SPACE_FLAG);
    } catch (err) {
      throw new UserError(err instanceof Error ? err.message : String(err)); // the form's errors have no exit code
    }
  })();
  const values = parseValues(form.values ?? '', flag);
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
      timeoutSeconds: SWEEP_DEFAULTS.requestTimeoutSeconds,
    },
    flag,
    values,
    sizesMB: flag === SEMI_SPACE_FLAG ? values : [],
    rounds: whole(form.rounds, 'rounds', 1, 30),
    // Pinning is a semi-space setting: the form hides it for other flags, and a saved "pinned" stays out.
    pinMinSemiSpace: flag === SEMI_SPACE_FLAG && form.pinMin,
    onRunFailure: form.onFailure,
  };
}

/** Seconds a sweep will take, roughly: start-up and stop of each run included. */
export function estimateSweepSeconds(config: Pick<SweepConfig, 'values' | 'sizesMB' | 'rounds' | 'load' | 'profileRounds' | 'survivors'>): number {
  return sweepRunCount(config) * (config.load.warmupSeconds + config.load.durationSeconds + 3);
}

/** Runs a sweep makes: every value × round, and one profiling run per value (see SweepConfig.profileRounds). */
export function sweepRunCount(config: Pick<SweepConfig, 'values' | 'sizesMB' | 'rounds' | 'profileRounds' | 'survivors'>): number {
  const values = sweepValues(config).length;
  return values * config.rounds + (hasProfileRounds(config) ? values : 0) + (config.survivors === true ? values : 0);
}
