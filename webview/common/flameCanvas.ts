/**
 * The report's flame graph drawn on a canvas, with d3-flame-graph's model and look (see
 * flameRenderer.ts): root at the top, 18 px rows, frames of more than 5 px, a 1 px gap of the
 * background between frames, the name in the editor font when the frame is 35 px or wider,
 * ancestors of the zoomed frame faded, an outline under the pointer. Why a canvas: d3-flame-graph
 * builds a d3 hierarchy of every node and an SVG group per drawn frame, which on an 86,000-node
 * profile took most of the page's first paint and ~120 ms per zoom; here a frame object is made
 * only when a frame is drawn or searched, and a zoom is one redraw.
 *
 * The frames drawn are also exposed as data on the container (`flameFrames()`, see DrawnFrame):
 * the page's tests and E2E scenarios find a frame by name there to hover or click it.
 * Keyboard: the canvas takes focus; arrows move between frames, Enter zooms, Ctrl+Enter opens the
 * source, Escape resets the zoom; the hover box and a polite live region describe the frame.
 */
import type { FlameFrame, FlameRenderer, FlameRendererConfig } from './flameRenderer';
import { el } from './dom';
import { cssVar } from './theme';

/** What the canvas renderer needs of a node: its name, self value and children, in drawing order. */
export interface CanvasNode {
  name: string;
  value: number;
  children: CanvasNode[];
}

/** One frame as drawn, in CSS pixels from the canvas's top-left corner (rows scrolled out of view have y < 0 or beyond its height). */
export interface DrawnFrame {
  name: string;
  url: string;
  depth: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The fill, as CSS. */
  fill: string;
  /** The text drawn in the frame ('' when it is too narrow for one). */
  label: string;
  highlight: boolean;
  faded: boolean;
}

interface Frame<T> extends FlameFrame<T> {
  parent: Frame<T> | null;
  /** Left and right edge as fractions of the whole tree (the zoom does not change them). */
  rx0: number;
  rx1: number;
  total: number;
  /** Inside the zoomed frame (or it). */
  inZoom: boolean;
}

interface Box<T> {
  frame: Frame<T>;
  x: number;
  width: number;
  faded: boolean;
}

const LABEL_MIN_PX = 35;
const LABEL_PAD_PX = 4;
const FADED_ALPHA = 0.55;
/** A browser refuses canvases much taller than this; deeper frames are not drawn. */
const MAX_CANVAS_PX = 30_000;

export interface CanvasRendererOptions<T> {
  /** Inclusive totals the view has already computed (else the renderer computes them). */
  total?: (node: T) => number;
}

export function canvasFlameRenderer<T extends CanvasNode>(options: CanvasRendererOptions<T> = {}) {
  return (config: FlameRendererConfig<T>): FlameRenderer<T> => new CanvasFlame<T>(config, options);
}

class CanvasFlame<T extends CanvasNode> implements FlameRenderer<T> {
  private container: HTMLElement | null = null;
  private readonly canvas = el('canvas', { className: 'flame-canvas', attrs: { tabindex: 0, role: 'img' } });
  /** Gives the scroll box the graph's full height; the canvas itself is only the visible part (sticky). */
  private readonly spacer = el('div', { className: 'flame-canvas-spacer' });
  private readonly live = el('div', { className: 'visually-hidden', attrs: { 'aria-live': 'polite' } });
  private fullHeight = 0;
  /** The scroll box's top when last painted, CSS px. */
  private top = 0;
  private paintQueued = false;
  /** The scroll box's scrollTop as of its last scroll event. */
  private scrolled = 0;
  /** The labels' font and colours, read from the theme once per draw of new data or colours. */
  private style: ReturnType<typeof labelStyle> | null = null;
  private root!: T;
  private totalOf!: (node: T) => number;
  private frames = new Map<T, Frame<T>>();
  private rootFrame!: Frame<T>;
  private focus!: Frame<T>;
  private width = 600;
  private boxes: Box<T>[][] = [];
  private drawnCount = 0;
  private hover: Frame<T> | null = null;
  private keyFrame: Frame<T> | null = null;
  private searched = false;

  constructor(
    private readonly config: FlameRendererConfig<T>,
    private readonly options: CanvasRendererOptions<T>,
  ) {
    this.canvas.addEventListener('mousemove', (event) => this.onMove(event));
    this.canvas.addEventListener('mouseleave', () => this.setHover(null, null));
    this.canvas.addEventListener('click', (event) => this.onClick(event));
    this.canvas.addEventListener('keydown', (event) => this.onKey(event));
    this.canvas.addEventListener('blur', () => {
      this.keyFrame = null;
      this.config.tooltip.hide();
      this.paint();
    });
  }

  mount(container: HTMLElement, data: T, width: number): void {
    this.container = container;
    this.width = width;
    container.append(this.canvas, this.spacer, this.live);
    container.addEventListener('scroll', () => {
      // Read here, where layout is fresh: reading it while painting would force a layout of the page.
      this.scrolled = container.scrollTop;
      this.queuePaint();
    });
    // The frames as data, for the page's tests (see DrawnFrame); nothing reads it to draw.
    Object.defineProperty(container, 'flameFrames', { value: () => this.drawnFrames(), configurable: true });
    this.setData(data);
  }

  setWidth(width: number): void {
    this.width = width;
    this.draw();
  }

  update(data?: T): void {
    this.style = null; // the theme may have changed
    if (data !== undefined && data !== this.root) this.setData(data);
    else this.draw();
  }

  search(term: string): void {
    this.searched = true;
    const results: Frame<T>[] = [];
    let sum = 0;
    // Every node, drawn or not (a match too narrow to draw still counts and gets a tick above the
    // graph). Frames are made (or looked up) only for the matches and their ancestors: a search of a
    // 400,000-node tree would otherwise allocate, or look up, one per node. The last search's marks
    // are cleared over the frames that exist, which are far fewer than the nodes.
    for (const frame of this.frames.values()) frame.highlight = false;
    const pathNodes: T[] = [];
    const pathFrames: (Frame<T> | undefined)[] = [this.rootFrame];
    const pathIndex: number[] = [];
    const stackNodes: T[] = [this.root];
    const stackDepth: number[] = [0];
    const stackIndex: number[] = [0];
    const stackUnder: boolean[] = [false];
    // One probe object for every match call, not one per node.
    const probe: Pick<FlameFrame<T>, 'data'> = { data: this.root };
    while (stackNodes.length > 0) {
      const node = stackNodes.pop()!;
      const depth = stackDepth.pop()!;
      const index = stackIndex.pop()!;
      const under = stackUnder.pop()!;
      pathNodes[depth] = node;
      pathIndex[depth] = index;
      if (depth > 0) pathFrames[depth] = undefined;
      probe.data = node;
      const hit = this.config.match(probe, term);
      if (hit) {
        for (let k = 1; k <= depth; k++) pathFrames[k] ??= this.childFrame(pathFrames[k - 1]!, pathNodes[k - 1]!.children as T[], pathIndex[k]!);
        const frame = pathFrames[depth]!;
        frame.highlight = true;
        results.push(frame);
        if (!under) sum += frame.value;
      }
      const children = node.children as T[];
      for (let i = children.length - 1; i >= 0; i--) {
        stackNodes.push(children[i]!);
        stackDepth.push(depth + 1);
        stackIndex.push(i);
        stackUnder.push(under || hit);
      }
    }
    this.config.onSearch(results, sum);
    this.draw();
  }

  clear(): void {
    if (!this.searched) return;
    this.searched = false;
    for (const frame of this.frames.values()) frame.highlight = false;
    this.draw();
  }

  zoomTo(d: FlameFrame<T>): void {
    const frame = this.frames.get(d.data);
    if (!frame) return;
    this.config.tooltip.hide();
    this.focus = frame;
    this.applyZoom();
    this.draw();
    this.config.onZoom(frame);
  }

  resetZoom(): void {
    this.zoomTo(this.rootFrame);
  }

  frameCount(): number {
    return this.drawnCount;
  }

  private setData(data: T): void {
    this.root = data;
    this.frames = new Map();
    this.totalOf = this.options.total ?? inclusiveTotals(data);
    const total = this.totalOf(data);
    this.rootFrame = { data, depth: 0, parent: null, rx0: 0, rx1: 1, x0: 0, x1: 1, value: total, total, highlight: false, inZoom: true };
    this.frames.set(data, this.rootFrame);
    this.focus = this.rootFrame;
    this.hover = null;
    this.keyFrame = null;
    this.searched = false;
    this.draw();
  }

  /** The frame of `children[i]` under `parent`, made on first use with its place in the whole tree. */
  private childFrame(parent: Frame<T>, children: T[], i: number): Frame<T> {
    const node = children[i]!;
    let frame = this.frames.get(node);
    if (frame) return frame;
    const whole = this.rootFrame.total || 1;
    // Siblings are laid out left to right from the parent's left edge; the parent's self time is what remains on the right.
    let offset = parent.rx0;
    for (let k = 0; k < children.length; k++) {
      const child = children[k]!;
      const t = this.totalOf(child);
      const existing = this.frames.get(child);
      if (!existing) {
        const made: Frame<T> = { data: child, depth: parent.depth + 1, parent, rx0: offset, rx1: offset + t / whole, x0: 0, x1: 0, value: 0, total: t, highlight: false, inZoom: false };
        this.placeInZoom(made);
        this.frames.set(child, made);
      }
      offset += t / whole;
    }
    frame = this.frames.get(node)!;
    return frame;
  }

  /** A new frame's x0, x1 and value under the zoom: inside the zoomed frame as laid out, elsewhere hidden. */
  private placeInZoom(frame: Frame<T>): void {
    const parent = frame.parent;
    if (parent?.inZoom) this.showInZoom(frame);
    else hide(frame);
  }

  private showInZoom(frame: Frame<T>): void {
    const f = this.focus;
    const span = f.rx1 - f.rx0 || 1;
    frame.inZoom = true;
    frame.x0 = (frame.rx0 - f.rx0) / span;
    frame.x1 = (frame.rx1 - f.rx0) / span;
    frame.value = frame.total;
  }

  /**
   * x0, x1 and value of every frame made so far, as d3-flame-graph has them after a zoom: the
   * zoomed frame's ancestors span the width and are worth its total, frames outside it are hidden.
   */
  private applyZoom(): void {
    for (const frame of this.frames.values()) hide(frame);
    const f = this.focus;
    for (let a = f.parent; a; a = a.parent) {
      a.x0 = 0;
      a.x1 = 1;
      a.value = f.total;
    }
    // Frames are made parents first: a node without a frame has no descendant with one.
    const stack: Frame<T>[] = [f];
    while (stack.length > 0) {
      const frame = stack.pop()!;
      this.showInZoom(frame);
      for (const child of frame.data.children as T[]) {
        const c = this.frames.get(child);
        if (c) stack.push(c);
      }
    }
  }

  /** Lays out the frames wide enough to draw, from the zoomed frame down, and paints them. */
  private draw(): void {
    const container = this.container;
    if (!container) return;
    const cell = this.config.cellHeight;
    const min = this.config.minFrameSize;
    const width = this.width;
    const boxes: Box<T>[][] = [];
    const add = (frame: Frame<T>, x: number, w: number, faded: boolean) => (boxes[frame.depth] ??= []).push({ frame, x, width: w, faded });
    // The zoomed frame's ancestors across the whole width, faded.
    for (let a = this.focus.parent; a; a = a.parent) add(a, 0, width, true);
    const f = this.focus;
    const kx = width / (f.rx1 - f.rx0 || 1);
    const stack: Frame<T>[] = [f];
    while (stack.length > 0) {
      const frame = stack.pop()!;
      const w = (frame.rx1 - frame.rx0) * kx;
      if (!(w > min)) continue;
      add(frame, (frame.rx0 - f.rx0) * kx, w, false);
      const children = frame.data.children as T[];
      for (let i = children.length - 1; i >= 0; i--) {
        // A child's width is known from its total before its frame is made: narrow ones cost nothing.
        if (!((this.totalOf(children[i]!) / (this.rootFrame.total || 1)) * kx > min)) continue;
        stack.push(this.childFrame(frame, children, i));
      }
    }
    this.boxes = boxes;
    let count = 0;
    for (const row of boxes) count += row?.length ?? 0;
    this.drawnCount = count;
    // d3-flame-graph's height: the deepest drawn row and two more.
    this.fullHeight = Math.min(MAX_CANVAS_PX, (Math.max(1, boxes.length) + 2) * cell);
    this.paint();
    container.setAttribute('data-width', String(Math.round(width)));
  }

  private queuePaint(): void {
    if (this.paintQueued) return;
    this.paintQueued = true;
    requestAnimationFrame(() => {
      this.paintQueued = false;
      this.paint();
    });
  }

  /** The part of the graph in the scroll box's view (at most 70% of the window, as the box's CSS caps it). */
  private paint(): void {
    const container = this.container;
    if (!container) return;
    const cell = this.config.cellHeight;
    const width = this.width;
    const height = Math.min(this.fullHeight, Math.max(4 * cell, Math.floor(window.innerHeight * 0.7)));
    this.spacer.style.height = `${this.fullHeight - height}px`;
    this.top = Math.max(0, Math.min(this.scrolled, this.fullHeight - height));
    const top = this.top;
    const ratio = window.devicePixelRatio || 1;
    const canvas = this.canvas;
    if (canvas.style.width !== `${width}px`) canvas.style.width = `${width}px`;
    if (canvas.style.height !== `${height}px`) canvas.style.height = `${height}px`;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.setAttribute('aria-label', `Flame graph: ${this.drawnCount} frames drawn${this.focus !== this.rootFrame ? `, zoomed into ${this.focus.data.name}` : ''}`);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = (this.style ??= labelStyle());
    ctx.font = style.font;
    ctx.textBaseline = 'middle';
    const charWidth = ctx.measureText('x').width || 7;
    const firstRow = Math.floor(top / cell);
    const lastRow = Math.min(this.boxes.length - 1, Math.ceil((top + height) / cell));
    for (let depth = firstRow; depth <= lastRow; depth++) {
      const row = this.boxes[depth];
      if (!row) continue;
      const y = depth * cell - top;
      for (const box of row) {
        ctx.globalAlpha = box.faded ? FADED_ALPHA : 1;
        ctx.fillStyle = this.config.color(box.frame);
        // One pixel of the background between neighbours, as d3-flame-graph's stroke leaves.
        ctx.fillRect(box.x, y, Math.max(1, box.width - 1), cell - 1);
        const label = labelText(box.frame.data.name, box.width, charWidth);
        if (label) {
          ctx.fillStyle = style.color;
          // maxWidth: a proportional editor font may run wider than the monospace estimate.
          ctx.fillText(label, box.x + LABEL_PAD_PX, y + cell / 2, Math.max(1, box.width - 2 * LABEL_PAD_PX));
        }
      }
    }
    ctx.globalAlpha = 1;
    for (const [frame, colour] of [[this.hover, style.outline], [this.keyFrame, style.outline]] as const) {
      const box = frame ? this.boxOf(frame) : null;
      if (!box) continue;
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1.5;
      ctx.strokeRect(box.x + 0.75, frame!.depth * cell - top + 0.75, Math.max(1, box.width - 2.5), cell - 2.5);
    }
  }

  private boxOf(frame: Frame<T>): Box<T> | null {
    return this.boxes[frame.depth]?.find((b) => b.frame === frame) ?? null;
  }

  private boxAt(x: number, y: number): Box<T> | null {
    const row = this.boxes[Math.floor(y / this.config.cellHeight)];
    if (!row) return null;
    for (const box of row) if (x >= box.x && x < box.x + box.width) return box;
    return null;
  }

  private pointer(event: MouseEvent): Box<T> | null {
    const r = this.canvas.getBoundingClientRect();
    return this.boxAt(event.clientX - r.left, event.clientY - r.top + this.top);
  }

  private onMove(event: MouseEvent): void {
    const box = this.pointer(event);
    this.setHover(box?.frame ?? null, event);
  }

  private setHover(frame: Frame<T> | null, event: MouseEvent | null): void {
    this.canvas.style.cursor = frame ? 'pointer' : '';
    if (frame !== this.hover) {
      this.hover = frame;
      this.paint();
    }
    if (frame && event) this.config.tooltip.show(event, frame);
    else if (!frame) this.config.tooltip.hide();
  }

  private onClick(event: MouseEvent): void {
    const box = this.pointer(event);
    if (!box) return;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      this.config.openSource(box.frame.data);
      return;
    }
    this.zoomTo(box.frame);
  }

  /** Arrows move between drawn frames (up: the caller, down: the widest callee), Enter zooms, Escape resets. */
  private onKey(event: KeyboardEvent): void {
    const current = this.keyFrame ?? this.focus;
    let next: Frame<T> | null = null;
    const row = (depth: number) => this.boxes[depth] ?? [];
    const box = this.boxOf(current);
    switch (event.key) {
      case 'ArrowUp':
        next = current.parent;
        break;
      case 'ArrowDown': {
        const below = row(current.depth + 1).filter((b) => box && b.x >= box.x - 0.5 && b.x < box.x + box.width);
        next = below.sort((a, b) => b.width - a.width)[0]?.frame ?? null;
        break;
      }
      case 'ArrowLeft':
      case 'ArrowRight': {
        const same = row(current.depth);
        const i = same.findIndex((b) => b.frame === current);
        next = same[i + (event.key === 'ArrowLeft' ? -1 : 1)]?.frame ?? null;
        break;
      }
      case 'Enter':
        if (event.ctrlKey || event.metaKey) this.config.openSource(current.data);
        else this.zoomTo(current);
        event.preventDefault();
        return;
      case 'Escape':
        this.resetZoom();
        event.preventDefault();
        return;
      default:
        return;
    }
    event.preventDefault();
    if (!next) return;
    this.keyFrame = next;
    this.paint();
    const b = this.boxOf(next);
    const r = this.canvas.getBoundingClientRect();
    const x = r.left + (b ? b.x + Math.min(b.width / 2, 40) : 0);
    const y = r.top + next.depth * this.config.cellHeight - this.top + this.config.cellHeight;
    this.config.tooltip.show(new MouseEvent('mousemove', { clientX: x, clientY: y }), next);
    this.live.textContent = `${next.data.name}, depth ${next.depth}`;
  }

  private drawnFrames(): DrawnFrame[] {
    const cell = this.config.cellHeight;
    const ctx = this.canvas.getContext('2d');
    const charWidth = ctx ? ((ctx.font = (this.style ??= labelStyle()).font), ctx.measureText('x').width || 7) : 7;
    const out: DrawnFrame[] = [];
    for (const row of this.boxes) {
      for (const box of row ?? []) {
        const data = box.frame.data as T & { url?: string };
        out.push({
          name: data.name,
          url: data.url ?? '',
          depth: box.frame.depth,
          x: box.x,
          y: box.frame.depth * cell - this.top,
          width: box.width,
          height: cell,
          fill: this.config.color(box.frame),
          label: labelText(data.name, box.width, charWidth),
          highlight: box.frame.highlight === true,
          faded: box.faded,
        });
      }
    }
    return out;
  }
}

function hide<T>(frame: Frame<T>): void {
  frame.inZoom = false;
  frame.x0 = 0;
  frame.x1 = 0;
  frame.value = 0;
}

/** The name as it fits: whole, cut with an ellipsis, or '' under 35 px (d3-flame-graph's rule). */
function labelText(name: string, width: number, charWidth: number): string {
  if (width < LABEL_MIN_PX) return '';
  const room = Math.floor((width - 2 * LABEL_PAD_PX) / charWidth);
  if (room <= 0) return '';
  return name.length <= room ? name : `${name.slice(0, Math.max(0, room - 1))}…`;
}

/** The labels' font and colour, and the hover outline, from the theme (as report.css styles the SVG labels). */
function labelStyle(): { font: string; color: string; outline: string } {
  const family = cssVar('--vscode-editor-font-family', '') || 'ui-monospace, monospace';
  return {
    font: `11.5px ${family}`,
    color: cssVar('--vscode-editor-foreground', cssVar('--vscode-foreground', '#cccccc')),
    outline: cssVar('--vscode-focusBorder', '#007fd4'),
  };
}

/** Inclusive totals (self plus descendants), iteratively: real stacks are hundreds of frames deep. */
function inclusiveTotals<T extends CanvasNode>(root: T): (node: T) => number {
  const totals = new Map<CanvasNode, number>();
  const order: CanvasNode[] = [];
  const stack: CanvasNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    order.push(n);
    for (const c of n.children) stack.push(c);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i]!;
    let t = n.value;
    for (const c of n.children) t += totals.get(c)!;
    totals.set(n, t);
  }
  return (node) => totals.get(node) ?? 0;
}
