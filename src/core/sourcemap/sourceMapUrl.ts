/**
 * The text-level pieces of finding a source map: the `sourceMappingURL` comment, `data:` URLs, and
 * turning the `file:` URLs a map resolves to into filesystem paths. No I/O here.
 */

/**
 * Both comment forms, each alone at the end of its line: `//# sourceMappingURL=x` (also the old
 * `//@`) and `/*# sourceMappingURL=x *\/`. Ending the line keeps a string literal that merely
 * contains the text (bundled tooling does) from matching.
 */
const SOURCE_MAPPING_URL =
  /(?:\/\/[#@][ \t]*sourceMappingURL=[ \t]*([^\s'"`]+)[ \t]*$)|(?:\/\*[#@][ \t]*sourceMappingURL=[ \t]*([^\s*'"`]+)[ \t]*\*\/[ \t]*$)/gm;

/** The URL of the last `sourceMappingURL` comment in a generated file, as written; null when there is none. */
export function findSourceMappingUrl(code: string): string | null {
  // Cheap test first: most files without a map never run the regex.
  if (!code.includes('sourceMappingURL=')) return null;
  let last: string | null = null;
  SOURCE_MAPPING_URL.lastIndex = 0;
  for (let m = SOURCE_MAPPING_URL.exec(code); m !== null; m = SOURCE_MAPPING_URL.exec(code)) {
    last = m[1] ?? m[2] ?? last;
  }
  return last;
}

/**
 * The text of a `data:` URL: `data:application/json;base64,…` (any parameters, e.g.
 * `;charset=utf-8;base64`) or the percent-encoded form without `;base64`. Null when it is not a
 * `data:` URL or cannot be decoded.
 */
export function readDataUrl(url: string): string | null {
  if (!/^data:/i.test(url)) return null;
  const comma = url.indexOf(',');
  if (comma < 0) return null;
  const params = url.slice(5, comma).split(';').map((p) => p.trim().toLowerCase());
  const payload = url.slice(comma + 1);
  if (params.includes('base64')) {
    // Base64 in a URL may itself be percent-encoded (`%2B`, `%3D`); Buffer skips what it cannot read.
    const b64 = payload.includes('%') ? percentDecode(payload) : payload;
    if (!/^[A-Za-z0-9+/=_\s-]*$/.test(b64)) return null;
    return Buffer.from(b64, 'base64').toString('utf8');
  }
  try {
    return decodeURIComponent(payload);
  } catch {
    return null;
  }
}

/** A drive-letter path such as `C:\x` or `C:/x`: a filesystem path on any OS, never a URL scheme. */
export const WINDOWS_DRIVE_PATH = /^[A-Za-z]:[\\/]/;

/** `scheme:` at the start (two or more letters, so `C:` is a drive, not a scheme). */
export const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;

/**
 * A `file:` URL as a filesystem path, percent-decoded. Unlike `url.fileURLToPath` it keeps `?` and
 * `#` (tsc writes raw file names into `sources`, and a resolved source keeps them), it does not throw
 * on a stray `%`, and drive-letter URLs become Windows paths on every OS. `file://host/…` becomes a
 * UNC path (`//host/…`).
 */
export function fileUrlToPath(url: string): string {
  let rest = url.slice('file:'.length);
  let host = '';
  if (rest.startsWith('//')) {
    rest = rest.slice(2);
    const slash = rest.indexOf('/');
    host = slash < 0 ? rest : rest.slice(0, slash);
    rest = slash < 0 ? '/' : rest.slice(slash);
    if (host.toLowerCase() === 'localhost') host = '';
  }
  const path = percentDecode(rest);
  if (/^\/[A-Za-z]:(?:\/|$)/.test(path)) return path.slice(1).replace(/\//g, '\\');
  return host === '' ? path : `//${percentDecode(host)}${path}`;
}

/**
 * Percent-decodes what decodes: `decodeURIComponent` on the whole text or, when that fails (a `%`
 * that starts no escape, bytes that are no UTF-8), escape by escape, keeping the ones it cannot decode.
 */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, decodeEscapes);
  }
}

/** A run of `%XX` escapes: each character from the longest run of escapes (up to 4 UTF-8 bytes) that decodes. */
function decodeEscapes(run: string): string {
  const escapes = run.match(/%[0-9A-Fa-f]{2}/g) ?? [];
  let out = '';
  for (let i = 0; i < escapes.length; ) {
    let n = Math.min(4, escapes.length - i);
    for (; n >= 1; n--) {
      try {
        out += decodeURIComponent(escapes.slice(i, i + n).join(''));
        break;
      } catch {
        // shorter
      }
    }
    if (n === 0) {
      out += escapes[i];
      n = 1;
    }
    i += n;
  }
  return out;
}
