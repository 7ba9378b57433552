/**
 * Whether a sweep can compare values of a flag: first its spelling (no Node needed, so the form
 * and the CLI can say it at once), then, against the target's own Node (`--v8-options`,
 * `--help`), that the flag exists and takes a number, and that every value is one it accepts.
 * Every problem is one UserError that names the flag.
 */
import type { NodeRuntime } from '../flags/nodeRuntime';
import { validateUserFlag } from '../flags/userFlags';
import { UserError } from '../util/errors';
import { isOnOffFlag } from '../../shared/sweepFlags';
import { EXIT } from '../util/exitCodes';

/** V8's numeric flag types (`node --v8-options`). */
const NUMERIC_V8_TYPES = new Set(['int', 'uint', 'uint64', 'size_t', 'float']);

/**
 * Node's own options (not V8's) that take a number. `node --help` says an option takes a value
 * ("=...") but not what kind, so the lab only sweeps the ones it knows are numeric.
 */
export const NUMERIC_NODE_FLAGS: ReadonlySet<string> = new Set([
  'v8-pool-size',
  'max-http-header-size',
  'heapsnapshot-near-heap-limit',
  'secure-heap',
  'secure-heap-min',
  'network-family-autoselection-attempt-timeout',
  'max-old-space-size-percentage',
]);

/**
 * "--max_old_space_size" / " max-old-space-size " → "max-old-space-size". Refuses what cannot be
 * a flag name: empty, a value attached ("=512": the values are given apart), spaces, `no-`.
 */
export function parseSweepFlagName(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') throw new UserError('give the flag to sweep, e.g. max-old-space-size', EXIT.usage);
  const name = trimmed.replace(/^-+/, '').replace(/_/g, '-');
  if (name.includes('=')) {
    throw new UserError(`give the flag without a value (${trimmed.slice(0, trimmed.indexOf('='))}) and its values apart, e.g. flag max-old-space-size, values 256, 512`, EXIT.usage);
  }
  if (!/^[a-z0-9][a-z0-9-]*$/i.test(name)) throw new UserError(`'${trimmed}' is not a flag name: letters, digits and dashes, e.g. max-old-space-size`, EXIT.usage);
  if (/^no-/.test(name)) throw new UserError(`--${name} is the "off" form of an on/off flag; a sweep compares values of a flag that takes a number`, EXIT.usage);
  return name.toLowerCase();
}

/** How a value is written on the command line: 512, 1.5 (never 1e+21). */
export function flagValueText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(0) : String(value);
}

/**
 * The flag exists in the target's Node, takes a number, and accepts each value; else a UserError
 * (exit code 2) that names it, with the closest known name for a typo ("did you mean"), like the
 * profile's own flag check. Returns where the flag comes from.
 */
export function validateSweepFlag(flag: string, values: readonly number[], runtime: NodeRuntime): 'v8' | 'node' {
  const name = parseSweepFlagName(flag);
  const v8 = runtime.v8Flags.get(name);
  // The on/off flags the lab knows (sweepFlags.ts): 1 runs --<flag>, 0 --no-<flag>.
  if (isOnOffFlag(name)) {
    if (!v8 || (v8.type !== 'bool' && v8.type !== 'maybe_bool')) throw new UserError(`--${name} is not an on/off V8 flag in Node ${runtime.version}`, EXIT.usage);
    const bad = values.find((v) => v !== 0 && v !== 1);
    if (bad !== undefined) throw new UserError(`--${name} is on/off: its values are 1 (--${name}) and 0 (--no-${name}), not ${flagValueText(bad)}`, EXIT.usage);
    return 'v8';
  }
  if (v8 && !NUMERIC_V8_TYPES.has(v8.type)) {
    const what = v8.type === 'bool' || v8.type === 'maybe_bool' ? 'an on/off flag' : `a flag that takes ${v8.type === 'string' ? 'text' : `a ${v8.type}`}`;
    throw new UserError(`--${name} is ${what} in Node ${runtime.version}: a sweep compares values of a flag that takes a number`, EXIT.usage);
  }
  let origin: 'v8' | 'node' = 'v8';
  for (const value of values) {
    if (!Number.isFinite(value)) throw new UserError(`--${name}: ${String(value)} is not a number`, EXIT.usage);
    try {
      origin = validateUserFlag(`--${name}=${flagValueText(value)}`, runtime).origin;
    } catch (err) {
      if (err instanceof UserError) throw new UserError(err.message, EXIT.usage);
      throw err;
    }
  }
  if (values.length === 0) {
    // Still say whether the flag exists (the value check above did it otherwise).
    if (!v8 && !runtime.nodeFlags.has(name) && !runtime.allowedInNodeOptions.has(name)) {
      try {
        validateUserFlag(`--${name}=1`, runtime);
      } catch (err) {
        if (err instanceof UserError) throw new UserError(err.message, EXIT.usage);
        throw err;
      }
    }
    origin = v8 ? 'v8' : 'node';
  }
  if (origin === 'node') {
    if (!NUMERIC_NODE_FLAGS.has(name)) {
      throw new UserError(
        `--${name} is a Node option that V8 Lens does not know to take a number; a sweep compares values of a numeric flag (node --v8-options lists V8's with their types)`,
        EXIT.usage,
      );
    }
    const bad = values.find((v) => !Number.isInteger(v) || v < 0);
    if (bad !== undefined) throw new UserError(`--${name}=${flagValueText(bad)}: a whole number ≥ 0 is expected`, EXIT.usage);
  }
  return origin;
}
