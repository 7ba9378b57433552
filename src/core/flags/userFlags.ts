import { UserError } from '../util/errors';
import { normalizeFlagName } from './optionLists';
import type { NodeRuntime } from './nodeRuntime';

/** A flag as the user typed it, split into its parts. */
export interface UserFlag {
  /** Exactly as typed: this is what goes on the command line. */
  raw: string;
  /** Without dashes and `no-`, `_` folded to `-`. */
  name: string;
  negated: boolean;
  value: string | null;
  origin: 'v8' | 'node';
}

/** Flags V8 Lens sets itself for the run folder; a user value would silently break the capture. */
const OWNED_FLAGS = new Set([
  'cpu-prof',
  'cpu-prof-dir',
  'cpu-prof-name',
  'cpu-prof-interval',
  'logfile',
  'logfile-per-isolate',
  'redirect-code-traces',
  'redirect-code-traces-to',
  'prof',
]);

const NUMERIC_TYPES = new Set(['int', 'uint', 'uint64', 'size_t', 'float']);

/**
 * Checks each flag against what the target's own Node reports (`--v8-options`, `--help`) and
 * returns them parsed; the first problem found becomes a one-line UserError.
 */
export function validateUserFlags(flags: readonly string[], runtime: NodeRuntime): UserFlag[] {
  return flags.map((raw) => validateUserFlag(raw, runtime));
}

export function validateUserFlag(raw: string, runtime: NodeRuntime): UserFlag {
  const text = raw.trim();
  if (!/^--?[A-Za-z]/.test(text)) {
    throw new UserError(`'${raw}' is not a flag: V8 and Node flags start with --, e.g. --max-old-space-size=512`);
  }
  const eq = text.indexOf('=');
  const rawName = eq === -1 ? text : text.slice(0, eq);
  const value = eq === -1 ? null : text.slice(eq + 1);
  let name = normalizeFlagName(rawName);
  let negated = false;
  const where = `Node ${runtime.version}`;

  if (OWNED_FLAGS.has(name) || (name.startsWith('no-') && OWNED_FLAGS.has(name.slice(3)))) {
    throw new UserError(`${rawName} is set by V8 Lens itself for the run folder; leave it out (use the interval/preset options instead)`);
  }

  let info = runtime.v8Flags.get(name);
  if (!info && name.startsWith('no-') && runtime.v8Flags.has(name.slice(3))) {
    name = name.slice(3);
    negated = true;
    info = runtime.v8Flags.get(name);
  }
  if (info) {
    const isBool = info.type === 'bool' || info.type === 'maybe_bool';
    if (isBool && value !== null) throw new UserError(`${rawName} is an on/off flag and takes no value (use ${rawName} or --no-${name})`);
    if (negated && !isBool) throw new UserError(`--no-${name} is not valid: ${name} is not an on/off flag`);
    if (NUMERIC_TYPES.has(info.type)) {
      if (value === null || value === '') throw new UserError(`${rawName} needs a number, e.g. ${rawName}=${exampleValue(info.defaultText)}`);
      if (!isNumberFor(info.type, value)) throw new UserError(`${rawName}=${value}: ${info.type === 'float' ? 'a number' : 'a whole number'} is expected`);
    }
    if (info.type === 'string' && value === null) throw new UserError(`${rawName} needs a value (${rawName}=…)`);
    return { raw: text, name, negated, value, origin: 'v8' };
  }

  const nodeName = normalizeFlagName(rawName);
  if (runtime.nodeFlags.has(nodeName) || runtime.allowedInNodeOptions.has(nodeName)) {
    return { raw: text, name: nodeName, negated: false, value, origin: 'node' };
  }

  const hint = closestFlag(name, runtime);
  throw new UserError(`unknown flag ${rawName}: ${where} (V8 ${runtime.v8Version}) has no such option${hint ? `; did you mean --${hint}?` : ''}`);
}

function isNumberFor(type: string, value: string): boolean {
  if (type === 'float') return /^-?(\d+\.?\d*|\.\d+)(e-?\d+)?$/i.test(value);
  if (type === 'int') return /^-?\d+$/.test(value);
  return /^\d+$/.test(value);
}

function exampleValue(defaultText: string): string {
  const m = /=(.+)$/.exec(defaultText);
  return m && m[1] !== '0' ? m[1]! : '64';
}

function closestFlag(name: string, runtime: NodeRuntime): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 5));
  const consider = (candidate: string) => {
    const d = editDistance(name, candidate, bestDistance);
    if (d < bestDistance || (d === bestDistance && best === undefined)) {
      best = candidate;
      bestDistance = d;
    }
  };
  for (const candidate of runtime.v8Flags.keys()) consider(candidate);
  for (const candidate of runtime.nodeFlags) consider(candidate);
  return best;
}

/** Levenshtein distance, giving up (returning `limit + 1`) once it is certain to exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev = row;
  }
  return prev[b.length]!;
}
