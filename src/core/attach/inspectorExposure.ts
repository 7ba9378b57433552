/**
 * Where a Node process's inspector listens, or will listen once SIGUSR1 opens it. An inspector is
 * full code execution without authentication: one bound to every interface (0.0.0.0, ::) or to a
 * network address can be reached by anyone who can reach the machine, so V8 Lens attaches to it
 * only when the user says so (`--allow-remote`, the `v8Lens.attach.allowRemote` setting, or the
 * editor's question).
 */
import { UserError } from '../util/errors';
import { EXIT } from '../util/exitCodes';

/** The options that set the inspector's address: `--inspect-port=[host:]port`, `--inspect[-brk|-wait]=[host:]port`. */
const ADDRESS_FLAGS = ['--inspect-port', '--debug-port', '--inspect', '--inspect-brk', '--inspect-wait'];
/** Node options whose value may be the next word (so that word is not the script). */
const TAKES_NEXT = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--title', '--env-file', '--inspect-port', '--debug-port', '--input-type', '--stack-trace-limit', '--redirect-warnings', '--diagnostic-dir', '--report-dir', '--cpu-prof-dir', '--heap-prof-dir']);

/**
 * The host an inspector of this process binds (from its command line, then NODE_OPTIONS, the
 * last one given winning as in Node); null when none is given, which means 127.0.0.1.
 */
export function configuredInspectorHost(argv: readonly string[], nodeOptions: string | null): string | null {
  let host: string | null = null;
  const scan = (args: readonly string[]) => {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      // Node's own options come before the script; what follows it belongs to the app.
      if (arg === '--' || !arg.startsWith('-')) break;
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg : arg.slice(0, eq);
      if (!ADDRESS_FLAGS.includes(name)) {
        if (eq === -1 && TAKES_NEXT.has(name)) i++;
        continue;
      }
      let value = eq === -1 ? null : arg.slice(eq + 1);
      // `--inspect-port 9230` takes the next word; `--inspect` alone takes nothing.
      if (value === null && (name === '--inspect-port' || name === '--debug-port')) value = args[++i] ?? null;
      const parsed = value === null ? null : hostOf(value);
      if (parsed !== null) host = parsed;
    }
  };
  scan(argv.slice(1));
  if (nodeOptions) scan(nodeOptions.split(/\s+/).filter(Boolean));
  return host;
}

/** "0.0.0.0:9229" → "0.0.0.0", "[::]:0" → "::", "9229" → null (the default host). */
function hostOf(value: string): string | null {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  if (/^\d+$/.test(value)) return null;
  const colon = value.lastIndexOf(':');
  if (colon !== -1 && /^\d+$/.test(value.slice(colon + 1)) && !value.slice(0, colon).includes(':')) return value.slice(0, colon);
  return value;
}

/** Reachable only from this machine: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackBind(host: string): boolean {
  const h = host.replace(/^::ffff:/, '').toLowerCase();
  return h.startsWith('127.') || h === '::1' || h === 'localhost';
}

/**
 * The inspector is (or would be) reachable from other machines, and the user has not allowed
 * remote inspectors. `opened`: V8 Lens's SIGUSR1 opened it (and closed it again).
 */
export class ExposedInspectorError extends UserError {
  constructor(
    /** null: given as host:port or a URL. */
    readonly pid: number | null,
    /** host:port as bound, or the host alone when it is not open yet. */
    readonly listening: string,
    readonly when: 'configured' | 'open' | 'opened',
  ) {
    super(exposedMessage(pid, listening, when), EXIT.usage);
    this.name = 'ExposedInspectorError';
  }
}

function exposedMessage(pid: number | null, listening: string, when: ExposedInspectorError['when']): string {
  const risk = 'every machine that can reach this one could run code in it (the inspector has no authentication)';
  const allow = 'attach anyway with --allow-remote (editor: the v8Lens.attach.allowRemote setting)';
  switch (when) {
    case 'configured':
      return `pid ${pid} would open its inspector on ${listening}, not on loopback (its --inspect-port says so): ${risk}; V8 Lens did not signal it. Restart it with --inspect-port=127.0.0.1:<port>, or ${allow}`;
    case 'open':
      return `${pid === null ? 'the inspector' : `pid ${pid}'s inspector`} listens on ${listening}, not on loopback: ${risk}. Restart it with --inspect=127.0.0.1:<port>, or ${allow}`;
    case 'opened':
      return `SIGUSR1 opened pid ${pid}'s inspector on ${listening}, not on loopback: ${risk}; V8 Lens closed it again. Restart it with --inspect-port=127.0.0.1:<port>, or ${allow}`;
  }
}

