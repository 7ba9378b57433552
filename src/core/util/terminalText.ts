/**
 * Text V8 Lens prints to a terminal carries data from files (function names, URLs, reasons): a
 * crafted profile must not retitle the terminal, clear it or overwrite lines. Control characters
 * (C0 but tab and newline, DEL, C1 such as the one-byte CSI) become visible escapes instead.
 * So do the bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E/F): a right-to-left
 * override makes `gniht` read as `thing`, in a terminal and in Markdown alike ("Trojan Source").
 * The target's own output is passed through untouched: that is the app speaking, not data.
 */
import { isAsciiText } from './asciiText';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const visible = (c: string) => {
  const code = c.charCodeAt(0);
  if (code === 0x0d) return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

export function safeForTerminal(text: string): string {
  return text.replace(CONTROL, visible);
}

/** The bidirectional controls alone made visible (`\u202e`): for Markdown, whose other characters are escaped its own way. */
export function escapeBidi(text: string): string {
  return text.replace(BIDI, visible);
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 already, but leaves DEL and C1 (U+007F–U+009F)
 * and the bidirectional controls raw, and some terminals act on U+009B as CSI. Escaped, it is the
 * same JSON value.
 */
export function jsonForTerminal(value: unknown): string {
  const json = JSON.stringify(value, null, 2);
  // Mostly ASCII below DEL: that check and one memchr take 1 ms where the regex took 12 on a 7 MB summary.
  if (isAsciiText(json) && !json.includes('\u007f')) return json;
  return json.replace(/[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Text from the user or a file echoed back (a rule, a path, a name in a message): at most `max`
 * characters, the rest said by its length, so a 100 KB rule does not come back whole.
 */
export function clipText(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}… (${(text.length - max).toLocaleString('en-US')} more characters)` : text;
}
