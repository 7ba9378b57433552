/**
 * Text V8 Lens prints to a terminal carries data from files (function names, URLs, reasons): a
 * crafted profile must not retitle the terminal, clear it or overwrite lines. Control characters
 * (C0 but tab and newline, DEL, C1 such as the one-byte CSI) become visible escapes instead.
 * The target's own output is passed through untouched: that is the app speaking, not data.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function safeForTerminal(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code === 0x0d ? '\\r' : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 already, but leaves DEL and C1 (U+007F–U+009F)
 * raw, and some terminals act on U+009B as CSI. Escaped, it is the same JSON value.
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
