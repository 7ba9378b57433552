/**
 * Colours from the VS Code theme. VS Code puts its `--vscode-*` variables on <html> and changes
 * them (and the body's `vscode-light`/`vscode-dark` class) when the theme changes; the standalone
 * export defines a light and a dark set that follow `prefers-color-scheme` (standalone.css). SVG
 * fills and canvas drawing need real colours, so the variables are resolved here and re-resolved
 * on a change.
 */
import type { FrameCategory } from '../../src/shared/frameCategory';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

let probe: CanvasRenderingContext2D | null = null;

/** Any CSS colour string → rgb, through the canvas colour parser (no regex zoo, no CSP issue). */
export function parseColor(text: string, fallback: Rgb = { r: 128, g: 128, b: 128 }): Rgb {
  probe ??= document.createElement('canvas').getContext('2d');
  if (!probe || !text) return fallback;
  probe.fillStyle = '#010203';
  probe.fillStyle = text;
  const v = String(probe.fillStyle);
  if (v === '#010203' && text.trim().toLowerCase() !== '#010203') return fallback;
  if (v.startsWith('#')) return { r: parseInt(v.slice(1, 3), 16), g: parseInt(v.slice(3, 5), 16), b: parseInt(v.slice(5, 7), 16) };
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(v);
  return m ? { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]) } : fallback;
}

export function toCss(c: Rgb, alpha = 1): string {
  return alpha >= 1 ? `rgb(${c.r}, ${c.g}, ${c.b})` : `rgba(${c.r}, ${c.g}, ${c.b}, ${alpha})`;
}

/** `a` over `b` at `t` (1 = all a). */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return { r: Math.round(a.r * t + b.r * (1 - t)), g: Math.round(a.g * t + b.g * (1 - t)), b: Math.round(a.b * t + b.b * (1 - t)) };
}

export function luminance(c: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

export function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** Theme variables used for each frame category (the `--vscode-charts-*` family, which every theme sets). */
export const CATEGORY_VARS: Record<FrameCategory, [string, string]> = {
  user: ['--vscode-charts-orange', '#d18616'],
  dependency: ['--vscode-charts-purple', '#b180d7'],
  node: ['--vscode-charts-blue', '#3794ff'],
  native: ['--vscode-charts-green', '#89d185'],
  gc: ['--vscode-charts-red', '#f14c4c'],
  idle: ['--vscode-charts-lines', '#808080'],
  process: ['--vscode-charts-foreground', '#cccccc'],
  tool: ['--vscode-disabledForeground', '#8c8c8c'],
  waiting: ['--vscode-charts-lines', '#808080'],
};

/** GC types V8 prints, to a chart colour; unknown types get the rest of the palette in order. */
const GC_TYPE_VARS: Record<string, [string, string]> = {
  Scavenge: ['--vscode-charts-blue', '#3794ff'],
  'Minor Mark-Sweep': ['--vscode-charts-purple', '#b180d7'],
  'Minor Mark-Compact': ['--vscode-charts-purple', '#b180d7'],
  'Mark-Compact': ['--vscode-charts-red', '#f14c4c'],
  'Incremental Mark-Compact': ['--vscode-charts-red', '#f14c4c'],
  'Mark-sweep': ['--vscode-charts-red', '#f14c4c'],
};
const GC_SPARE_VARS: [string, string][] = [
  ['--vscode-charts-orange', '#d18616'],
  ['--vscode-charts-yellow', '#cca700'],
  ['--vscode-charts-foreground', '#cccccc'],
];

export interface Palette {
  dark: boolean;
  background: Rgb;
  foreground: Rgb;
  /** Secondary text (axis ticks, notes). */
  muted: Rgb;
  grid: Rgb;
  /** Flame frame fills per category, already blended with the background so the label text reads. */
  frame: Record<FrameCategory, Rgb>;
  /** The raw chart colour per category (legend swatches). */
  category: Record<FrameCategory, Rgb>;
  heap: Rgb;
  fontFamily: string;
  gcType(type: string, index: number): Rgb;
}

export function readPalette(): Palette {
  const background = parseColor(cssVar('--vscode-editor-background', '#1e1e1e'));
  const foreground = parseColor(cssVar('--vscode-editor-foreground', cssVar('--vscode-foreground', '#cccccc')));
  const dark = luminance(background) < 0.4;
  const muted = parseColor(cssVar('--vscode-descriptionForeground', dark ? '#9d9d9d' : '#717171'));
  const grid = mix(parseColor(cssVar('--vscode-charts-lines', dark ? '#808080' : '#6f6f6f')), background, 0.35);
  const category = {} as Record<FrameCategory, Rgb>;
  const frame = {} as Record<FrameCategory, Rgb>;
  for (const [cat, [name, fallback]] of Object.entries(CATEGORY_VARS) as [FrameCategory, [string, string]][]) {
    const c = parseColor(cssVar(name, fallback));
    category[cat] = c;
    // Enough of the chart colour to tell categories apart, enough background for the label to read.
    // Waiting: the idle grey, fainter, so the two off-CPU kinds stay apart in the legend.
    frame[cat] = mix(c, background, cat === 'idle' ? 0.35 : cat === 'waiting' ? 0.55 : dark ? 0.62 : 0.6);
  }
  const gcCache = new Map<string, Rgb>();
  return {
    dark,
    background,
    foreground,
    muted,
    grid,
    frame,
    category,
    heap: parseColor(cssVar('--vscode-charts-green', dark ? '#89d185' : '#388a34')),
    fontFamily: cssVar('--vscode-font-family', 'system-ui, sans-serif'),
    gcType(type, index) {
      let c = gcCache.get(type);
      if (!c) {
        const [name, fallback] = GC_TYPE_VARS[type] ?? GC_SPARE_VARS[index % GC_SPARE_VARS.length]!;
        c = parseColor(cssVar(name, fallback));
        gcCache.set(type, c);
      }
      return c;
    },
  };
}

/** Calls `fn` (once per frame at most) when the theme's variables or the colour scheme change. */
export function onThemeChange(fn: () => void): void {
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fn();
    });
  };
  const observer = new MutationObserver(schedule);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', schedule);
}
