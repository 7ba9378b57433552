/**
 * What Linux's /proc tells about a process: its binary and command line, and which TCP ports it
 * listens on (its file descriptors name socket inodes, `socket:[12345]`, and /proc/<pid>/net/tcp{,6},
 * the tables of its network namespace, map inodes to addresses). No other platform has this;
 * callers check `process.platform` first.
 */
import { readFile, readdir, readlink, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseProcStat } from '../launcher/procStats';

export interface ListeningSocket {
  /** As printed: "127.0.0.1", "0.0.0.0", "::1", "::". */
  address: string;
  port: number;
  inode: number;
  /** Bound to a loopback address (127.0.0.0/8, ::1, ::ffff:127.x). */
  loopback: boolean;
  /** Bound to every address (0.0.0.0 or ::): reachable over loopback too. */
  wildcard: boolean;
}

const TCP_LISTEN = '0A';

/** The LISTEN rows of a /proc/net/tcp or tcp6 table. */
export function parseProcNetTcp(text: string): ListeningSocket[] {
  const out: ListeningSocket[] = [];
  for (const line of text.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
    if (cols.length < 10 || cols[3] !== TCP_LISTEN) continue;
    const [hexAddress, hexPort] = cols[1]!.split(':');
    if (!hexAddress || !hexPort) continue;
    const address = hexAddress.length === 8 ? ipv4FromProc(hexAddress) : hexAddress.length === 32 ? ipv6FromProc(hexAddress) : null;
    const inode = Number(cols[9]);
    if (address === null || !Number.isFinite(inode)) continue;
    out.push({ address, port: parseInt(hexPort, 16), inode, loopback: isLoopbackAddress(address), wildcard: address === '0.0.0.0' || address === '::' });
  }
  return out;
}

/** /proc prints an IPv4 address as one 32-bit word in host (little-endian) byte order. */
function ipv4FromProc(hex: string): string {
  const n = parseInt(hex, 16);
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff].join('.');
}

/** IPv6: four 32-bit words, each in host byte order. */
function ipv6FromProc(hex: string): string {
  const bytes: number[] = [];
  for (let w = 0; w < 4; w++) {
    const word = hex.slice(w * 8, w * 8 + 8);
    for (let b = 3; b >= 0; b--) bytes.push(parseInt(word.slice(b * 2, b * 2 + 2), 16));
  }
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return `::ffff:${bytes.slice(12).join('.')}`;
  }
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return compressIpv6(groups);
}

function compressIpv6(groups: string[]): string {
  // The longest run of zero groups (length ≥ 2) becomes "::".
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === '0') j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  if (bestLength < 2) return groups.join(':');
  return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLength).join(':')}`;
}

function isLoopbackAddress(address: string): boolean {
  return address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.');
}

/** Socket inodes among a process's open file descriptors. Throws EACCES for another user's process. */
export async function socketInodes(pid: number): Promise<Set<number>> {
  const fdDir = `/proc/${pid}/fd`;
  const fds = await readdir(fdDir);
  const inodes = new Set<number>();
  await Promise.all(
    fds.map(async (fd) => {
      const target = await readlink(`${fdDir}/${fd}`).catch(() => '');
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m) inodes.add(Number(m[1]));
    }),
  );
  return inodes;
}

/**
 * The TCP sockets the process listens on that can be reached over loopback (bound to loopback or to
 * every address), loopback-bound ones first (Node's inspector binds 127.0.0.1 unless told otherwise).
 */
export async function loopbackListeners(pid: number): Promise<ListeningSocket[]> {
  const inodes = await socketInodes(pid);
  if (inodes.size === 0) return [];
  const tables = await Promise.all(['tcp', 'tcp6'].map((t) => readFile(`/proc/${pid}/net/${t}`, 'utf8').catch(() => '')));
  const seen = new Set<number>();
  const out: ListeningSocket[] = [];
  for (const socket of tables.flatMap(parseProcNetTcp)) {
    if (!inodes.has(socket.inode) || seen.has(socket.inode) || !(socket.loopback || socket.wildcard)) continue;
    seen.add(socket.inode);
    out.push(socket);
  }
  return out.sort((a, b) => Number(b.loopback) - Number(a.loopback));
}

/** node, nodejs, node22, node.exe: what a Node binary is called. */
const NODE_EXE = /^node(js)?(\d+(\.\d+)*)?(\.exe)?$/i;

export interface ProcessInfo {
  pid: number;
  /** The running binary (/proc/<pid>/exe); null when it cannot be read. */
  exe: string | null;
  argv: string[];
  isNode: boolean;
  sameUser: boolean;
  /** Clock ticks since boot: orders processes by age. */
  startTicks: number;
}

/** What /proc tells about a process; null when there is no such process. */
export async function readProcessInfo(pid: number): Promise<ProcessInfo | null> {
  const dir = `/proc/${pid}`;
  const info = await stat(dir).catch(() => null);
  if (!info) return null;
  const sameUser = typeof process.getuid !== 'function' || info.uid === process.getuid();
  const exe = await readlink(`${dir}/exe`).catch(() => null);
  const argv = await readFile(`${dir}/cmdline`, 'utf8').then(
    (text) => text.split('\0').filter((part, i, all) => part !== '' || i < all.length - 1),
    () => [],
  );
  const startTicks = parseProcStat(await readFile(`${dir}/stat`, 'utf8').catch(() => ''))?.startTicks ?? 0;
  const exeName = exe ? basename(exe.replace(/ \(deleted\)$/, '')) : null;
  const isNode = exeName !== null ? NODE_EXE.test(exeName) : argv[0] !== undefined && NODE_EXE.test(basename(argv[0]));
  return { pid, exe, argv, isNode, sameUser, startTicks };
}

/**
 * How this machine's loopback port is bound, from /proc/net/tcp{,6} of our own network namespace:
 * the listener that a connection to 127.0.0.1:<port> or [::1]:<port> reaches. Null when none is
 * found (another namespace, not Linux).
 */
export async function loopbackPortListener(port: number): Promise<ListeningSocket | null> {
  if (process.platform !== 'linux') return null;
  const tables = await Promise.all(['tcp', 'tcp6'].map((t) => readFile(`/proc/net/${t}`, 'utf8').catch(() => '')));
  const listening = tables.flatMap(parseProcNetTcp).filter((s) => s.port === port && (s.loopback || s.wildcard));
  return listening.find((s) => s.wildcard) ?? listening[0] ?? null;
}

/** One variable of a process's environment (/proc/<pid>/environ); null when unset or unreadable. */
export async function processEnvVar(pid: number, name: string): Promise<string | null> {
  const text = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
  const entry = text.split('\0').find((e) => e.startsWith(`${name}=`));
  return entry === undefined ? null : entry.slice(name.length + 1);
}
