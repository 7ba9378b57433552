import { CpuProfileError } from './cpuProfileError';

/**
 * `JSON.parse` with failures turned into messages a user can act on: an empty file, a file cut off
 * while it was being written (the usual case: the profiled process was killed), or not JSON at all.
 */
export function parseProfileJson(text: string, sourceName: string): unknown {
  // A UTF-8 BOM is legal in a file but not in JSON.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (isBlank(body)) throw new CpuProfileError(sourceName, 'the file is empty.');
  try {
    return JSON.parse(body);
  } catch (err) {
    throw new CpuProfileError(sourceName, describeJsonFailure(body, err));
  }
}

function describeJsonFailure(body: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof RangeError) return `it could not be parsed (${message}).`;
  const trimmedLength = body.trimEnd().length;
  const position = errorPosition(message);
  const start = body.trimStart()[0];
  const endsEarly =
    /end of JSON input|Unterminated string/i.test(message) ||
    (position !== null && position >= trimmedLength && (start === '{' || start === '['));
  if (endsEarly) {
    const size = formatSize(body.length);
    return `the JSON ends early (after ${size}), so the file looks truncated: was the profiled process killed before it finished writing the profile?`;
  }
  const where = position === null ? '' : ` at ${lineAndColumn(body, position)}`;
  if (start !== '{' && start !== '[') return `it is not JSON (${preview(body)}).`;
  return `it is not valid JSON (error${where}: ${message}).`;
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

/** V8 reports "… in JSON at position 123"; older and newer versions differ in the rest. */
function errorPosition(message: string): number | null {
  const match = /at position (\d+)/.exec(message);
  return match ? Number(match[1]) : null;
}

function lineAndColumn(text: string, position: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < position; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${position - lineStart + 1}`;
}

function preview(text: string): string {
  const head = text.trimStart().slice(0, 24);
  // Control characters would break the one-line message (and mean a binary file anyway).
  const printable = head.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '?');
  if ((printable.match(/\?/g)?.length ?? 0) > head.length / 4) return 'it looks like binary data';
  return `it starts with ${JSON.stringify(printable + (text.trimStart().length > 24 ? '…' : ''))}`;
}

function formatSize(chars: number): string {
  if (chars < 1024) return `${chars} characters`;
  if (chars < 1024 * 1024) return `${(chars / 1024).toFixed(1)} KB`;
  return `${(chars / 1024 / 1024).toFixed(1)} MB`;
}
