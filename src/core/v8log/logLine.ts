/**
 * The CSV layer of V8's log (`--logfile`): one event per line, fields separated by `,`.
 *
 * V8's logger escapes every character it writes through its "safe" path: `,` becomes `\x2C`, `\`
 * becomes `\\`, a newline `\n`, other bytes outside printable ASCII `\xNN`, and UTF-16 units above
 * 0xFF `\uXXXX`. So a plain split on `,` is correct, and unescaping is done per field, after the split.
 *
 * The same `\xNN` means two different things depending on where V8 got the text (deps/v8 log.cc):
 * - C strings (the `code-deopt` position, reason): V8 escapes each UTF-8 *byte*, so `ü` is `\xc3\xbc`.
 * - V8 String objects (`code-creation` names, `script-*` urls): it escapes each UTF-16 *unit*, so
 *   `ü` is `\xfc` (a Latin-1 code point) and `日` is `\u65e5`.
 * Function names are sometimes written raw (already UTF-8), which both unescapers leave alone.
 */

export function splitLogLine(line: string): string[] {
  return line.split(',');
}

/** Unescapes a field V8 wrote from a C string: runs of `\xNN` are UTF-8 bytes. */
export function unescapeUtf8Bytes(field: string): string {
  return unescape(field, true);
}

/** Unescapes a field V8 wrote from a JS string: `\xNN` is a Latin-1 code point, `\uXXXX` a UTF-16 unit. */
export function unescapeCodePoints(field: string): string {
  return unescape(field, false);
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

function unescape(field: string, xIsUtf8Byte: boolean): string {
  if (!field.includes('\\')) return field;
  let out = '';
  let bytes: number[] = [];
  const flushBytes = (): void => {
    if (bytes.length > 0) {
      out += utf8.decode(Uint8Array.from(bytes));
      bytes = [];
    }
  };
  let i = 0;
  while (i < field.length) {
    const ch = field[i]!;
    if (ch !== '\\' || i + 1 >= field.length) {
      flushBytes();
      out += ch;
      i++;
      continue;
    }
    const next = field[i + 1]!;
    const hex2 = next === 'x' ? hexAt(field, i + 2, 2) : null;
    if (hex2 !== null) {
      if (xIsUtf8Byte) bytes.push(hex2);
      else out += String.fromCharCode(hex2);
      i += 4;
      continue;
    }
    flushBytes();
    const hex4 = next === 'u' ? hexAt(field, i + 2, 4) : null;
    if (hex4 !== null) {
      out += String.fromCharCode(hex4);
      i += 6;
    } else if (next === '\\') {
      out += '\\';
      i += 2;
    } else if (next === 'n') {
      out += '\n';
      i += 2;
    } else {
      // Not an escape V8 writes: keep the backslash and go on, never fail on odd input.
      out += ch;
      i++;
    }
  }
  flushBytes();
  return out;
}

function hexAt(text: string, start: number, length: number): number | null {
  if (start + length > text.length) return null;
  const digits = text.slice(start, start + length);
  return /^[0-9a-fA-F]+$/.test(digits) ? parseInt(digits, 16) : null;
}
