import { UserError } from '../util/errors';
import { EXIT } from '../util/exitCodes';

/** Where to find a running Node's inspector, as the user gave it. */
export type InspectorAddress = { kind: 'pid'; pid: number } | { kind: 'hostPort'; host: string; port: number } | { kind: 'ws'; url: string };

const EXAMPLES = 'give a pid (1234), host:port (127.0.0.1:9229) or the ws:// URL Node printed ("Debugger listening on ws://…")';

/**
 * "1234" → pid; "127.0.0.1:9229" / "localhost:9229" / "[::1]:9229" → hostPort (an http:// URL of the
 * inspector, e.g. "http://127.0.0.1:9229/json/list", too); "ws://…" → ws. A UserError (CLI exit
 * code 2) with a clear sentence otherwise. The host is kept without IPv6 brackets.
 */
export function parseInspectorAddress(text: string): InspectorAddress {
  const input = text.trim();
  if (input === '') throw new UserError(`no inspector address: ${EXAMPLES}`, EXIT.usage);
  if (/^\d+$/.test(input)) {
    const pid = Number(input);
    if (!Number.isSafeInteger(pid) || pid < 1 || pid > 0x7fffffff) throw new UserError(`'${input}' is not a process id`, EXIT.usage);
    return { kind: 'pid', pid };
  }
  if (/^wss?:\/\//i.test(input)) {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new UserError(`'${input}' is not a valid ws:// URL: ${EXAMPLES}`, EXIT.usage);
    }
    if (url.hostname === '') throw new UserError(`'${input}' has no host: ${EXAMPLES}`, EXIT.usage);
    return { kind: 'ws', url: url.href };
  }
  if (/^https?:\/\//i.test(input)) {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new UserError(`'${input}' is not a valid URL: ${EXAMPLES}`, EXIT.usage);
    }
    if (url.port === '') throw new UserError(`'${input}' has no port; the inspector's is usually 9229 (e.g. 127.0.0.1:9229)`, EXIT.usage);
    return { kind: 'hostPort', host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) };
  }
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(input);
  if (!m) throw new UserError(`'${input}' is not an inspector address: ${EXAMPLES}`, EXIT.usage);
  const port = Number(m[3]);
  if (port < 1 || port > 65535) throw new UserError(`port ${m[3]} is out of range (1–65535)`, EXIT.usage);
  const host = (m[1] ?? m[2])!;
  return { kind: 'hostPort', host, port };
}

/** "127.0.0.1:9229", "[::1]:9229": a host and port as they go into a URL. */
export function formatHostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
