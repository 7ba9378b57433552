/**
 * What flameChrome.ts asks of the thing that draws a flame graph: the report's canvas renderer
 * (flameCanvas.ts) or d3-flame-graph's SVG (svgFlameRenderer.ts, the compare page). Both follow
 * d3-flame-graph's model: frames are laid out as fractions of the zoomed frame's width, a zoom
 * hides the siblings of the zoomed frame and its ancestors and fades the ancestors, and a search
 * marks `highlight` on every matching frame, drawn or not.
 */

/** A frame as the chrome and the views see it (d3-flame-graph's hierarchy node has the same shape). */
export interface FlameFrame<T> {
  data: T;
  depth: number;
  /** Left and right edge as fractions of the graph's width under the current zoom (0 and 0 when hidden by it). */
  x0: number;
  x1: number;
  /** The frame's total under the current zoom (0 when the zoom hides it). */
  value: number;
  parent: FlameFrame<T> | null;
  highlight?: boolean;
}

export interface FlameRendererConfig<T> {
  /** Nodes in the tree: above some count, transitions cost more than they show. */
  nodeCount: number;
  cellHeight: number;
  /** Frames this narrow or narrower (px) are not drawn. */
  minFrameSize: number;
  /** A frame's fill, as CSS. */
  color(d: FlameFrame<T>): string;
  /** Whether a frame matches a search; reads `d.data` only (a renderer may ask before it makes the frame). */
  match(d: Pick<FlameFrame<T>, 'data'>, term: string): boolean;
  /** After a search: every matching frame, and the total of those not inside another match. */
  onSearch(results: FlameFrame<T>[], sum: number): void;
  /** A zoom happened (a click, zoomTo or resetZoom); the root frame for a reset. */
  onZoom(d: FlameFrame<T>): void;
  tooltip: { show(event: MouseEvent, d: FlameFrame<T>): void; hide(): void };
  /** Ctrl/⌘-click (or Ctrl+Enter on the focused frame). */
  openSource(node: T): void;
}

export interface FlameRenderer<T> {
  /** Draws `data` into `container` at `width` CSS pixels. */
  mount(container: HTMLElement, data: T, width: number): void;
  setWidth(width: number): void;
  /** New data (the zoom starts over), or without it the same data redrawn (new colours). */
  update(data?: T): void;
  search(term: string): void;
  clear(): void;
  /** Zooms to a frame, as a click on it does (onZoom is called). */
  zoomTo(d: FlameFrame<T>): void;
  resetZoom(): void;
  /** Frames drawn now. */
  frameCount(): number;
}

export type FlameRendererFactory<T> = (config: FlameRendererConfig<T>) => FlameRenderer<T>;
