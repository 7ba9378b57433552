/**
 * A Chrome DevTools Protocol session over one WebSocket (the `ws` client): numbered commands with
 * timeouts, events by method name, and one promise for the end of the connection.
 */
// Only a type here: `ws` (and with it http, https, net, tls, zlib) loads when a session connects,
// not when the extension activates.
import type WebSocket from 'ws';
import { UserError, errorMessage, oneLine } from '../util/errors';
import { EXIT } from '../util/exitCodes';

/** The target answered a command with a protocol error. */
export class CdpError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message}`);
    this.name = 'CdpError';
  }
}

/**
 * The answer did not come: the connection closed ('closed'), the command timed out ('timeout'), or
 * the other end sent something that is not the DevTools protocol and was dropped ('garbage').
 */
export class CdpClosedError extends Error {
  constructor(
    message: string,
    readonly kind: 'closed' | 'timeout' | 'garbage' = 'closed',
  ) {
    super(message);
    this.name = 'CdpClosedError';
  }
}

export interface CdpClose {
  code: number;
  reason: string;
  /** When it happened (Date.now()). */
  atMs: number;
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** A profile of a long-running server can be large; ws's default limit (100 MiB) is not enough. */
const MAX_MESSAGE_BYTES = 2 ** 30;

export class CdpSession {
  /** Settles when the socket closes, for whatever reason (never rejects). */
  readonly closed: Promise<CdpClose>;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(params: Record<string, unknown>) => void>>();
  private closeInfo: CdpClose | null = null;
  /** Why we dropped the connection: data that is not the protocol (one line); null otherwise. */
  private garbage: string | null = null;

  private constructor(private readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString('utf8'), atMs: Date.now() };
        for (const [id, p] of this.pending) {
          clearTimeout(p.timer);
          this.pending.delete(id);
          p.reject(
            this.garbage !== null
              ? new CdpClosedError(`${this.garbage} (before ${p.method} was answered)`, 'garbage')
              : new CdpClosedError(`the connection closed before ${p.method} was answered`),
          );
        }
        resolve(this.closeInfo);
      });
    });
    socket.on('message', (data) => this.receive(data));
    // After the handshake, an error is a broken frame (not a WebSocket stream) or a broken
    // connection; 'close' follows and settles everything.
    socket.on('error', (err: Error) => {
      if (/invalid|unexpected|must be|too big|exceeds/i.test(err.message)) this.dropGarbage(`it sent data that is not a WebSocket stream (${oneLine(err.message).slice(0, 120)})`);
    });
  }

  /** Why the connection was dropped, when it was for data that is not the protocol; null otherwise. */
  get garbageReason(): string | null {
    return this.garbage;
  }

  /** Data that is not the DevTools protocol: a real inspector never sends it, so the connection is dropped at once, saying why. */
  private dropGarbage(why: string): void {
    if (this.garbage !== null) return;
    this.garbage = why;
    this.socket.terminate();
  }

  /**
   * Opens the WebSocket. A refused connection, a handshake that is not a WebSocket upgrade (an HTTP
   * server that is not an inspector, a stale target id) or no answer become a one-line UserError.
   */
  static async connect(url: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<CdpSession> {
    const timeoutMs = options.timeoutMs ?? 5000;
    const { signal } = options;
    if (signal?.aborted) throw new UserError('cancelled before connecting to the inspector', EXIT.cancelled);
    const { default: WebSocketClient } = await import('ws');
    return new Promise((resolve, reject) => {
      let socket: WebSocket;
      try {
        // handshakeTimeout is a total deadline for the upgrade, not a per-byte one.
        socket = new WebSocketClient(url, { perMessageDeflate: false, maxPayload: MAX_MESSAGE_BYTES, handshakeTimeout: timeoutMs, followRedirects: false });
      } catch (err) {
        reject(new UserError(`'${url.slice(0, 200)}' is not a WebSocket URL: ${errorMessage(err)}`, EXIT.usage));
        return;
      }
      const onAbort = () => fail(new Error('cancelled'));
      const fail = (err: Error) => {
        signal?.removeEventListener('abort', onAbort);
        socket.removeAllListeners();
        socket.on('error', () => {});
        socket.terminate();
        reject(err.message === 'cancelled' ? new UserError('cancelled while connecting to the inspector; nothing was collected', EXIT.cancelled) : connectError(url, err, timeoutMs));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('error', fail);
      socket.once('unexpected-response', (_req, res) => {
        res.resume();
        fail(new Error(`Unexpected server response: ${res.statusCode}`));
      });
      socket.once('open', () => {
        signal?.removeEventListener('abort', onAbort);
        socket.off('error', fail);
        socket.removeAllListeners('unexpected-response');
        resolve(new CdpSession(socket));
      });
    });
  }

  get isOpen(): boolean {
    return this.closeInfo === null && this.socket.readyState === this.socket.OPEN;
  }

  /** Sends a command; rejects with CdpError (protocol error), CdpClosedError (closed or timed out). */
  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<T> {
    if (!this.isOpen) return Promise.reject(new CdpClosedError(`the connection is closed (${method} was not sent)`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new CdpClosedError(`${method} was not answered within ${Math.round(timeoutMs / 1000)} s`, 'timeout'));
      }, timeoutMs);
      this.pending.set(id, { method, resolve: resolve as (r: unknown) => void, reject, timer });
      this.socket.send(JSON.stringify({ id, method, params }), (err) => {
        if (!err) return;
        const p = this.pending.get(id);
        if (!p) return;
        clearTimeout(p.timer);
        this.pending.delete(id);
        reject(new CdpClosedError(`${method} could not be sent: ${err.message}`));
      });
    });
  }

  /** Listens to an event; returns the function that stops listening. */
  on(method: string, listener: (params: Record<string, unknown>) => void): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Closes the connection (the target keeps running) and waits until it is closed (at most 2 s). */
  async close(): Promise<void> {
    if (this.closeInfo) return;
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) this.socket.close(1000);
    const timer = setTimeout(() => this.socket.terminate(), 2000);
    await this.closed;
    clearTimeout(timer);
  }

  private receive(data: WebSocket.RawData): void {
    let message: { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { code?: number; message?: string } } | null = null;
    try {
      message = JSON.parse(data.toString());
    } catch {
      // not JSON: handled below
    }
    if (typeof message !== 'object' || message === null || (typeof message.id !== 'number' && typeof message.method !== 'string')) {
      this.dropGarbage(`it sent a message that is not the DevTools protocol (${describeGarbage(data)})`);
      return;
    }
    if (typeof message.id === 'number') {
      const p = this.pending.get(message.id);
      if (!p) return;
      clearTimeout(p.timer);
      this.pending.delete(message.id);
      if (message.error) p.reject(new CdpError(p.method, message.error.code ?? 0, message.error.message ?? 'unknown error'));
      else p.resolve(message.result ?? {});
      return;
    }
    if (typeof message.method === 'string') {
      for (const listener of this.listeners.get(message.method) ?? []) listener(message.params ?? {});
    }
  }
}

/** "37 bytes: \"hello\\u0000…\"": what a message that is not CDP started with, safe for one line. */
function describeGarbage(data: WebSocket.RawData): string {
  const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
  const head = JSON.stringify(bytes.subarray(0, 24).toString('latin1')).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `${bytes.length} bytes: ${head}${bytes.length > 24 ? '…' : ''}`;
}

function connectError(url: string, err: Error, timeoutMs: number): UserError {
  let shown = url;
  try {
    const u = new URL(url);
    shown = u.host; // the path holds the target's id: no need to repeat it
  } catch {
    // keep the text as given
  }
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return new UserError(`nothing is listening on ${shown}: is the process running with its inspector open?`, EXIT.usage);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new UserError(`cannot resolve the host of ${url}`, EXIT.usage);
  if (/handshake has timed out/i.test(err.message) || code === 'ETIMEDOUT') {
    return new UserError(`${shown} did not answer within ${timeoutMs / 1000} s: is it a Node inspector?`, EXIT.usage);
  }
  const status = /Unexpected server response: (\d+)/.exec(err.message);
  if (status && (status[1] === '400' || status[1] === '404')) {
    // Node's inspector answers an unknown target id with 400.
    return new UserError(
      `${shown} has no inspector target with that id (HTTP ${status[1]}): the id in a ws:// URL changes each time the process starts, so give host:port instead`,
      EXIT.usage,
    );
  }
  if (status) return new UserError(`${shown} is not a Node inspector: it answered HTTP ${status[1]} instead of opening a WebSocket`, EXIT.usage);
  return new UserError(`cannot connect to ${shown}: ${errorMessage(err)}`, EXIT.usage);
}
