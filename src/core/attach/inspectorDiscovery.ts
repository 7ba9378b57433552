/**
 * From what the user gave (a pid, host:port, a ws:// URL) to the WebSocket URL of a Node inspector.
 * The inspector is full code execution in the target, so only loopback is accepted unless the caller
 * explicitly allows remote hosts.
 */
import { basename } from 'node:path';
import { isLoopbackHost } from '../load/loopback';
import { UserError, errorMessage, isErrno } from '../util/errors';
import { formatHostPort, type InspectorAddress } from './inspectorAddress';
import { CdpSession } from './cdpSession';
import { ExposedInspectorError, configuredInspectorHost, isLoopbackBind } from './inspectorExposure';
import { loopbackListeners, loopbackPortListener, processEnvVar, readProcessInfo, type ListeningSocket } from './procFs';
import { EXIT } from '../util/exitCodes';
import * as lazy from '../util/lazyBuiltins';

/** One entry of the inspector's /json/list. */
export interface InspectorTarget {
  id: string;
  type: string;
  title: string;
  url: string;
  webSocketDebuggerUrl: string;
}

/** How long SIGUSR1 may take to open the inspector. */
export const SIGNAL_WAIT_MS = 5000;

/** The whole /json/list answer of a host:port must come within this (a total deadline: one that drips a byte at a time does not extend it). */
export const PROBE_DEADLINE_MS = 3000;

export class InspectorProbeError extends Error {
  constructor(
    readonly kind: 'refused' | 'timeout' | 'not-inspector' | 'unreachable' | 'cancelled',
    message: string,
  ) {
    super(message);
    this.name = 'InspectorProbeError';
  }
}

/**
 * A pid that has no inspector open and was not to be signalled. The UI can offer to open it
 * (SIGUSR1); the CLI's message names --open-inspector.
 */
export class NoInspectorError extends UserError {
  constructor(readonly pid: number) {
    super(
      `process ${pid} has no inspector open; run again with --open-inspector to open one with SIGUSR1 (as VS Code's debugger does; it listens on loopback and stays open until the process ends), or start it with --inspect`,
      EXIT.usage,
    );
    this.name = 'NoInspectorError';
  }
}

/**
 * The WebSocket URL of the target's inspector: for a pid, its open inspector port (from /proc net
 * tables of its sockets) or, with openWithSignal, after SIGUSR1 (then waits up to 5 s for it to
 * listen); for host:port, /json/list. Refuses non-loopback hosts unless allowRemote (UserError: "the
 * inspector is full code execution: …"), and an inspector on loopback that is bound to every
 * interface too (ExposedInspectorError): what counts is where it listens, not how we reach it.
 */
export async function resolveInspector(
  address: InspectorAddress,
  options: { allowRemote: boolean; openWithSignal: boolean; signal?: AbortSignal },
): Promise<ResolvedInspector> {
  const { signal } = options;
  switch (address.kind) {
    case 'ws': {
      const url = new URL(address.url);
      if (!options.allowRemote) refuseRemote(url.hostname, address.url);
      const port = Number(url.port || (url.protocol === 'wss:' ? 443 : 80));
      const listening = await listeningAddress(url.hostname.replace(/^\[|\]$/g, ''), port, options.allowRemote, null);
      return { webSocketUrl: address.url, pid: null, openedBySignal: false, listening };
    }
    case 'hostPort': {
      if (!options.allowRemote) refuseRemote(address.host, formatHostPort(address.host, address.port));
      const shown = formatHostPort(address.host, address.port);
      let targets: InspectorTarget[];
      try {
        targets = await fetchInspectorTargets(address.host, address.port, PROBE_DEADLINE_MS, signal);
      } catch (err) {
        throw probeUserError(err, shown);
      }
      const listening = await listeningAddress(address.host, address.port, options.allowRemote, null);
      return { webSocketUrl: pickTarget(targets, address.host, address.port, shown), pid: null, openedBySignal: false, listening };
    }
    case 'pid':
      return resolvePid(address.pid, options.openWithSignal, options.allowRemote, signal);
  }
}

export interface ResolvedInspector {
  webSocketUrl: string;
  pid: number | null;
  openedBySignal: boolean;
  /** host:port the inspector is bound to, as the system reports it (0.0.0.0:9229 for every interface). */
  listening: string;
}

/** A loopback address the user gave: how that port is really bound (every interface counts as exposed). */
async function listeningAddress(host: string, port: number, allowRemote: boolean, pid: number | null): Promise<string> {
  const shown = formatHostPort(host, port);
  if (!isLoopbackBind(host)) return shown;
  const socket = await loopbackPortListener(port);
  if (socket === null) return shown;
  const listening = formatHostPort(socket.address, socket.port);
  if (socket.wildcard && !allowRemote) throw new ExposedInspectorError(pid, listening, 'open');
  return listening;
}

function refuseRemote(host: string, shown: string): void {
  if (isLoopbackHost(host)) return;
  throw new UserError(
    `the inspector is full code execution: ${shown} is not on this machine, and the inspector protocol has no authentication or encryption; ` +
      'pass --allow-remote if you mean it, or better tunnel it (ssh -L 9229:127.0.0.1:9229 host) and attach to 127.0.0.1:9229',
    EXIT.usage,
  );
}

function cancelled(): UserError {
  return new UserError('cancelled before the inspector was found; nothing was collected', EXIT.cancelled);
}

async function resolvePid(pid: number, openWithSignal: boolean, allowRemote: boolean, signal?: AbortSignal): Promise<ResolvedInspector & { pid: number }> {
  if (pid === process.pid) throw new UserError(`pid ${pid} is V8 Lens itself`, EXIT.usage);
  if (process.platform !== 'linux') {
    throw new UserError(
      `attaching by pid needs Linux's /proc to find the inspector; give its host:port instead (start Node with --inspect, or open it with kill -USR1 ${pid}: it listens on 127.0.0.1:9229 unless --inspect-port says otherwise)`,
      EXIT.usage,
    );
  }
  const info = await readProcessInfo(pid);
  if (info === null) throw new UserError(`no process with pid ${pid}`, EXIT.usage);
  if (!info.sameUser) throw new UserError(`pid ${pid} belongs to another user: attach as that user`, EXIT.usage);
  if (!info.isNode) {
    // SIGUSR1's default action ends a process: never send it to one that is not Node.
    throw new UserError(`pid ${pid} is not a Node process (it runs ${info.exe ? basename(info.exe) : 'an unknown program'})`, EXIT.usage);
  }

  const open = await findInspector(pid, 1000, signal);
  if (signal?.aborted) throw cancelled();
  if (open) {
    if (!allowRemote && !open.socket.loopback) throw new ExposedInspectorError(pid, open.listening, 'open');
    return { webSocketUrl: open.webSocketUrl, pid, openedBySignal: false, listening: open.listening };
  }
  if (!openWithSignal) throw new NoInspectorError(pid);
  // Where SIGUSR1 would open it: refuse before signalling when that is not loopback.
  const host = configuredInspectorHost(info.argv, await processEnvVar(pid, 'NODE_OPTIONS'));
  if (!allowRemote && host !== null && !isLoopbackBind(host)) throw new ExposedInspectorError(pid, host, 'configured');

  try {
    process.kill(pid, 'SIGUSR1');
  } catch (err) {
    if (isErrno(err, 'ESRCH')) throw new UserError(`pid ${pid} ended before its inspector could be opened`, EXIT.failed);
    throw new UserError(`cannot signal pid ${pid}: ${errorMessage(err)}`, EXIT.failed);
  }
  const deadline = Date.now() + SIGNAL_WAIT_MS;
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    if (signal?.aborted) throw cancelled();
    const found = await findInspector(pid, 500, signal).catch(() => null);
    if (found) {
      if (!allowRemote && !found.socket.loopback) {
        // Bound to every interface by something the command line did not show: close it again at once.
        await closeInspector(found.webSocketUrl);
        throw new ExposedInspectorError(pid, found.listening, 'opened');
      }
      return { webSocketUrl: found.webSocketUrl, pid, openedBySignal: true, listening: found.listening };
    }
    if (!isAlive(pid)) throw new UserError(`pid ${pid} ended after SIGUSR1 (was it started with a handler that exits on SIGUSR1?)`, EXIT.failed);
    if (Date.now() > deadline) {
      throw new UserError(
        `pid ${pid} did not open an inspector within ${SIGNAL_WAIT_MS / 1000} s of SIGUSR1: its port (process.debugPort, 9229 unless --inspect-port says otherwise) may be taken by another process (see its stderr), or it was started with --disable-sigusr1`,
        EXIT.failed,
      );
    }
  }
}

/**
 * The open inspector of a local process (Linux): the first of its loopback-reachable listening
 * sockets that answers /json/list like a Node inspector. Null when none does.
 */
export async function findInspector(pid: number, timeoutMs: number, signal?: AbortSignal): Promise<{ port: number; webSocketUrl: string; socket: ListeningSocket; listening: string } | null> {
  const listeners = await loopbackListeners(pid);
  for (const socket of listeners) {
    if (signal?.aborted) return null;
    const host = socket.loopback ? socket.address.replace(/^::ffff:/, '') : socket.address === '::' ? '::1' : '127.0.0.1';
    try {
      const targets = await fetchInspectorTargets(host, socket.port, timeoutMs, signal);
      const shown = formatHostPort(host, socket.port);
      return { port: socket.port, webSocketUrl: pickTarget(targets, host, socket.port, shown), socket, listening: formatHostPort(socket.address, socket.port) };
    } catch {
      // Not the inspector (the app's own server, say): try the next.
    }
  }
  return null;
}

/**
 * GET http://host:port/json/list, the whole answer within `timeoutMs` (a total deadline, not an idle
 * timeout: an answer that drips a byte every 500 ms ends when the time is up), or until `signal`
 * aborts. Throws InspectorProbeError.
 */
export function fetchInspectorTargets(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<InspectorTarget[]> {
  return new Promise((resolve, reject) => {
    let received = -1; // -1: no response yet
    const settle = (done: () => void) => {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
      done();
    };
    const req = lazy.http().request({ host, port, path: '/json/list', method: 'GET', headers: { accept: 'application/json' } }, (res) => {
      received = 0;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        received += chunk.length;
        if (body.length > 1_000_000) req.destroy(new InspectorProbeError('not-inspector', 'the answer is too long for an inspector target list'));
      });
      res.on('end', () =>
        settle(() => {
          if (res.statusCode !== 200) return reject(new InspectorProbeError('not-inspector', `it answered /json/list with HTTP ${res.statusCode}`));
          let parsed: unknown;
          try {
            parsed = JSON.parse(body);
          } catch {
            return reject(new InspectorProbeError('not-inspector', 'its /json/list answer is not JSON'));
          }
          if (!Array.isArray(parsed)) return reject(new InspectorProbeError('not-inspector', 'its /json/list answer is not a target list'));
          const targets = parsed.filter(
            (t): t is InspectorTarget => typeof t === 'object' && t !== null && typeof (t as InspectorTarget).webSocketDebuggerUrl === 'string',
          );
          resolve(targets);
        }),
      );
      res.on('error', (err) => settle(() => reject(err instanceof InspectorProbeError ? err : new InspectorProbeError('unreachable', errorMessage(err)))));
    });
    const seconds = `${timeoutMs / 1000} s`;
    const deadline = setTimeout(() => {
      req.destroy(
        new InspectorProbeError(
          'timeout',
          received < 0 ? `did not answer within ${seconds}` : `sent only ${received} bytes of its /json/list answer within ${seconds} (a deadline for the whole answer)`,
        ),
      );
    }, timeoutMs);
    const onAbort = () => req.destroy(new InspectorProbeError('cancelled', 'cancelled'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) =>
      settle(() => {
        if (err instanceof InspectorProbeError) return reject(err);
        if (isErrno(err, 'ECONNREFUSED')) return reject(new InspectorProbeError('refused', 'connection refused'));
        if (isErrno(err, 'HPE_INVALID_CONSTANT') || /parse error/i.test(err.message)) {
          return reject(new InspectorProbeError('not-inspector', 'it does not speak HTTP'));
        }
        reject(new InspectorProbeError('unreachable', errorMessage(err)));
      }),
    );
    req.end();
  });
}

function pickTarget(targets: InspectorTarget[], host: string, port: number, shown: string): string {
  const target = targets.find((t) => t.type === 'node') ?? targets[0];
  if (!target) throw new UserError(`${shown} is an inspector with no target to attach to`, EXIT.usage);
  // Node prints the address it bound (ws://0.0.0.0:9229/… for --inspect=0.0.0.0): use the one we reached.
  const url = new URL(target.webSocketDebuggerUrl);
  url.host = formatHostPort(host, port);
  return url.href;
}

function probeUserError(err: unknown, shown: string): UserError {
  if (!(err instanceof InspectorProbeError)) return new UserError(`cannot reach ${shown}: ${errorMessage(err)}`, EXIT.usage);
  switch (err.kind) {
    case 'refused':
      return new UserError(`nothing is listening on ${shown}: is the process running with its inspector open (--inspect, or attach by pid with --open-inspector)?`, EXIT.usage);
    case 'timeout':
      return new UserError(`${shown} ${err.message}: is it a Node inspector, and is the process paused or stuck?`, EXIT.usage);
    case 'cancelled':
      return cancelled();
    case 'not-inspector':
      return new UserError(`${shown} is not a Node inspector: ${err.message}`, EXIT.usage);
    case 'unreachable':
      return new UserError(`cannot reach ${shown}: ${err.message}`, EXIT.usage);
  }
}

/** Closes an inspector (Node's own process._debugEnd, what inspector.close() does); best effort. */
async function closeInspector(webSocketUrl: string): Promise<void> {
  const cdp = await CdpSession.connect(webSocketUrl, { timeoutMs: 2000 }).catch(() => null);
  if (!cdp) return;
  await cdp.send('Runtime.evaluate', { expression: 'process._debugEnd()', silent: true }, 2000).catch(() => {});
  await cdp.close().catch(() => {});
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return isErrno(err, 'EPERM');
  }
}
