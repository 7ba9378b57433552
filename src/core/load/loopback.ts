import { UserError } from '../util/errors';
import { EXIT } from '../util/exitCodes';

/**
 * Load tests never leave the machine: the request URL and the readiness URL must name this host by
 * a loopback address (127.0.0.0/8, ::1) or `localhost`. A host name that merely resolves to
 * loopback is not accepted, since DNS can change its answer between the check and the load.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return host.split('.').every((part) => Number(part) <= 255);
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  // IPv4-mapped IPv6 (WHATWG URL prints [::ffff:127.0.0.1] as [::ffff:7f00:1]).
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(host);
  if (mapped) return parseInt(mapped[1]!, 16) >> 8 === 127;
  return false;
}

/**
 * Parses `text` as an http(s) URL on a loopback host, or throws a one-line UserError (CLI exit code 2)
 * that says which option was wrong. `what` names it: "the load URL", "--ready-url".
 */
export function requireLoopbackUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(`${what} '${text}' is not a URL (e.g. http://127.0.0.1:3000/)`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UserError(`${what} '${text}' must be http:// or https://`, EXIT.usage);
  }
  if (!isLoopbackHost(url.hostname)) {
    throw new UserError(`${what} '${text}' is not on this machine: load tests only target loopback (127.0.0.1, ::1, localhost)`, EXIT.usage);
  }
  return url;
}
