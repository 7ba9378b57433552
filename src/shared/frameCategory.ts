/**
 * What kind of code a frame is, for the flame graph's colours and filters. The same split Node
 * developers already read in 0x and Clinic: your code, dependencies, Node internals, V8/native,
 * the garbage collector, and the VM's idle/program time.
 */
export type FrameCategory = 'user' | 'dependency' | 'node' | 'native' | 'gc' | 'idle' | 'process';

/** In legend order; 'process' (one root frame per process or thread of a multi-process run) is not a kind of code: no legend entry. */
export const FRAME_CATEGORIES: readonly FrameCategory[] = ['user', 'dependency', 'node', 'native', 'gc', 'idle'];

export const FRAME_CATEGORY_LABELS: Record<FrameCategory, string> = {
  user: 'your code',
  dependency: 'node_modules',
  node: 'Node internals',
  native: 'V8 / native',
  gc: 'garbage collector',
  idle: 'idle / program',
  process: 'process / thread',
};

/** `line` is the 1-based function start (0 = none): JavaScript with no file (an inline or eval'd script) still has one. */
export function frameCategory(name: string, url: string, line = 0): FrameCategory {
  if (url === '') {
    if (name === '(garbage collector)') return 'gc';
    if (name === '(idle)' || name === '(program)' || name === '(root)') return 'idle';
    return line > 0 ? 'user' : 'native';
  }
  if (url.startsWith('node:') || /^internal[/:]/.test(url)) return 'node';
  if (/[/\\]node_modules[/\\]/.test(url)) return 'dependency';
  return 'user';
}
