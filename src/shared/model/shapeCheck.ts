/**
 * Hand-written shape checks for the JSON files a run folder holds (summary.json, session.json,
 * load.json, sweep.json, the agent's records). A run folder is data that may come from anywhere (a
 * ticket, a cloned repository): valid JSON of the wrong shape must become one line of reason, never
 * a TypeError deep inside a report. A check walks only as deep as its schema, so a file nested
 * 100,000 levels deep costs one comparison; `tooDeep` bounds what the schema lets through untouched
 * (fields a newer version added).
 *
 * A check returns null when the value fits, else the first problem as one line naming the field:
 * "cpu.functions[3].selfMs is a string, not a number". Imports nothing: the webviews may use it too.
 */

export type Check = (value: unknown, at: string) => string | null;

/** How a value is described in a problem: "null", "an array", "a string"… */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'missing';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'boolean':
      return `${value}`;
    default:
      return `a ${typeof value}`;
  }
}

const name = (at: string) => (at === '' ? 'the file' : at);
const wrong = (value: unknown, at: string, expected: string) => (value === undefined ? `${name(at)} is missing` : `${name(at)} is ${describeValue(value)}, not ${expected}`);
const field = (at: string, key: string) => (at === '' ? key : `${at}.${key}`);

export const str: Check = (v, at) => (typeof v === 'string' ? null : wrong(v, at, 'a string'));
/** A finite number (JSON has no NaN, but 1e999 reads as Infinity). */
export const num: Check = (v, at) => (typeof v === 'number' && Number.isFinite(v) ? null : wrong(v, at, 'a number'));
export const bool: Check = (v, at) => (typeof v === 'boolean' ? null : wrong(v, at, 'true or false'));
/** Anything: for fields no reader looks into. */
export const any: Check = () => null;
/** Any object (not null, not an array), its fields unchecked. */
export const anyObject: Check = (v, at) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? null : wrong(v, at, 'an object'));

export function nullable(check: Check): Check {
  return (v, at) => (v === null ? null : check(v, at));
}

/** A field that older files (or some kinds of run) leave out. */
export function optional(check: Check): Check {
  return (v, at) => (v === undefined ? null : check(v, at));
}

export function oneOf(...values: readonly (string | number | boolean | null)[]): Check {
  const list = values.map((v) => JSON.stringify(v)).join(', ');
  return (v, at) => {
    if (values.includes(v as string)) return null;
    if (v === undefined) return `${name(at)} is missing`;
    const shown = typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : describeValue(v);
    return `${name(at)} is ${shown}, not ${values.length === 1 ? list : `one of ${list}`}`;
  };
}

export function arrayOf(check: Check): Check {
  return (v, at) => {
    if (!Array.isArray(v)) return wrong(v, at, 'an array');
    for (let i = 0; i < v.length; i++) {
      const problem = check(v[i], `${at}[${i}]`);
      if (problem !== null) return problem;
    }
    return null;
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An object whose every value passes `check` (a `Record<string, T>`). */
export function recordOf(check: Check): Check {
  return (v, at) => {
    if (!isPlainObject(v)) return wrong(v, at, 'an object');
    for (const key of Object.keys(v)) {
      const problem = check(v[key], field(at, key));
      if (problem !== null) return problem;
    }
    return null;
  };
}

/**
 * An object with these fields; fields it does not list are let through (a newer version may have
 * added them). The type parameter makes the compiler ask for a check of every field of `T`.
 */
export function shape<T>(fields: { [K in keyof Required<T>]: Check }): Check {
  const entries = Object.entries(fields) as Array<[string, Check]>;
  return (v, at) => {
    if (!isPlainObject(v)) return wrong(v, at, 'an object');
    for (const [key, check] of entries) {
      const problem = check(Object.prototype.hasOwnProperty.call(v, key) ? v[key] : undefined, field(at, key));
      if (problem !== null) return problem;
    }
    return null;
  };
}

/** Both checks (a shape plus a condition across its fields). */
export function both(first: Check, second: Check): Check {
  return (v, at) => first(v, at) ?? second(v, at);
}

/** JSON nested deeper than this in our files is not ours (theirs are 6 levels at most). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests deeper than `limit`, walked without recursion. Code that walks
 * JSON recursively (JSON.stringify for the report page, a webview message) overflows the stack at
 * a few thousand levels, and the shape checks let unknown fields through.
 */
export function tooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * `text` parsed and checked: the value, or the one-line problem (not JSON, nested too deep, the
 * wrong shape), prefixed with `file`.
 */
export function parseCheckedJson<T>(text: string, file: string, check: Check): { value: T } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: `${file}: ${text.trim() === '' ? 'the file is empty' : 'not valid JSON (cut short?)'}` };
  }
  if (tooDeep(value)) return { problem: `${file}: nested deeper than ${MAX_JSON_DEPTH} levels, so not a file V8 Lens wrote` };
  const problem = check(value, '');
  return problem === null ? { value: value as T } : { problem: `${file}: ${problem}` };
}
