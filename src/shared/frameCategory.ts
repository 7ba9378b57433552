/**
 * What kind of code a frame is, for the flame graph's colours and filters. The same split Node
 * developers already read in 0x and Clinic: your code, dependencies, Node internals, V8/native,
 * the garbage collector, and the VM's idle/program time.
 */
export type FrameCategory = 'user' | 'dependency' | 'node' | 'native' | 'gc' | 'idle' | 'process' | 'tool' | 'waiting';

/**
 * The one frame V8 Lens's own agent is folded into (core/cpu/v8LensFrames.ts): its time on the app's
 * threads, drawn apart in grey and left out of every figure (hot functions, shares, tiers, the gate).
 */
export const V8_LENS_FRAME = '(V8 Lens)';

/** In legend order; 'process' (one root frame per process or thread of a multi-process run) is not a kind of code: no legend entry. */
export const FRAME_CATEGORIES: readonly FrameCategory[] = ['user', 'dependency', 'node', 'native', 'gc', 'idle', 'waiting', 'tool'];

export const FRAME_CATEGORY_LABELS: Record<FrameCategory, string> = {
  user: 'your code',
  dependency: 'node_modules',
  node: 'Node internals',
  native: 'V8 / native',
  gc: 'garbage collector',
  idle: 'idle / program',
  process: 'process / thread',
  tool: "V8 Lens's agent (left out of the figures)",
  waiting: 'waiting (thread blocked, off CPU)',
};

/**
 * Functions whose own time is a thread blocked off the CPU, not work: the profiler samples a thread
 * stopped in `Atomics.wait` as the JavaScript function that called it (V8 draws no frame for the
 * builtin; every tick of piscina's and tinypool's `atomicsWaitLoop` lands on its `Atomics.wait` line,
 * Node 20-26). Like the main thread's `(idle)`, their time is left out of the hot functions, the
 * gate and on-CPU shares, and is said apart as waiting. By name: the pools' own, whichever file.
 */
const WAITING_FUNCTIONS = new Set(['atomicsWaitLoop']);

export function isWaitingFrame(name: string, url: string): boolean {
  return url !== '' && WAITING_FUNCTIONS.has(name);
}

/** `line` is the 1-based function start (0 = none): JavaScript with no file (an inline or eval'd script) still has one. */
export function frameCategory(name: string, url: string, line = 0): FrameCategory {
  if (url === '') {
    if (name === V8_LENS_FRAME) return 'tool';
    if (name === '(garbage collector)') return 'gc';
    if (name === '(idle)' || name === '(program)' || name === '(root)') return 'idle';
    return line > 0 ? 'user' : 'native';
  }
  if (isWaitingFrame(name, url)) return 'waiting';
  if (url.startsWith('node:') || /^internal[/:]/.test(url)) return 'node';
  if (/[/\\]node_modules[/\\]/.test(url)) return 'dependency';
  return 'user';
}
