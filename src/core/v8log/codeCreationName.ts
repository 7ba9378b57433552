/**
 * The name field of a JS `code-creation` event: `"<function name> <url>:<line>:<col>"`, where the
 * position is the function start (1-based) and the name is empty for top-level code
 * (`" /app/x.js:1:1"`). Both the name (`get x`) and the url (a CommonJS path) may contain spaces,
 * so the split prefers a space that is followed by something shaped like a script url.
 */
import { parseLocation } from './sourcePosition';
import type { FunctionRef } from './types';

/**
 * How script urls start: absolute paths, `file:`/`node:`/`http(s):`/… schemes, drive letters, UNC.
 * Not `[`: names such as `[Symbol.iterator]` start with it (and `[eval]` is found by the fallback).
 */
const URL_START = /^(?:\/|[A-Za-z][A-Za-z0-9+.-]*:|\\\\)/;

/** `text` is already unescaped. Returns null when there is no `:line:col` at the end. */
export function parseCodeCreationName(text: string): FunctionRef | null {
  const split = urlStart(text);
  const name = split < 0 ? '' : text.slice(0, split);
  const location = parseLocation(split < 0 ? text : text.slice(split + 1));
  if (location === null) return null;
  return { name, ...location };
}

/** Index of the space before the url, or -1 when the whole text is the location. */
function urlStart(text: string): number {
  let lastSpace = -1;
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) {
    if (URL_START.test(text.slice(i + 1))) return i;
    lastSpace = i;
  }
  // No url-shaped part (a relative name such as `evalmachine.<anonymous>`): split at the last space.
  return lastSpace;
}
