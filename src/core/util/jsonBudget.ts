/**
 * `JSON.parse` cannot be stopped part way: 240 MB of `{},{},…` is 80 million objects, minutes and
 * gigabytes before it returns (or V8 dies out of memory). So JSON from a file is walked once first,
 * without building anything, counting what parsing it would build (objects and arrays, values) and
 * how deep it nests, and refused as soon as a count passes its limit: a bomb costs a scan of its
 * first few MB. Strings are skipped whole (a comma or bracket inside one is text). The walk does
 * not validate: malformed JSON is left to `JSON.parse`, which says where.
 */

export interface JsonLimits {
  /** Objects and arrays. */
  containers: number;
  /** Values and members, counted by their separators. */
  values: number;
  /** Nesting of objects and arrays. */
  depth: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

const count = (n: number) => n.toLocaleString('en-US');

/** Why parsing `text` would build more than `limits` allow, one line ("it holds more than … objects and arrays"); null when within. */
export function jsonBudgetProblem(text: string, limits: JsonLimits): string | null {
  let containers = 0;
  let values = 0;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: one not preceded by an odd run of backslashes.
      let j = i + 1;
      for (;;) {
        j = text.indexOf('"', j);
        if (j === -1) return null; // unterminated: JSON.parse says where
        let k = j - 1;
        while (text.charCodeAt(k) === BACKSLASH) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j++;
      }
      i = j;
    } else if (c === COMMA) {
      if (++values > limits.values) return `it holds more than ${count(limits.values)} values`;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++containers > limits.containers) return `it holds more than ${count(limits.containers)} objects and arrays`;
      if (++depth > limits.depth) return `nested deeper than ${count(limits.depth)} levels`;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return null;
}
