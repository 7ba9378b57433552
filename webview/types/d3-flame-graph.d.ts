// The part of d3-flame-graph v5's API we use (the package ships no types). The chart is a d3
// selection callback: `select(el).datum(data).call(chart)`.
declare module 'd3-flame-graph' {
  /** A d3-hierarchy node as the chart hands it to callbacks (`data` is our FlameNode). */
  export interface FlameHierarchyNode<T> {
    data: T;
    /** Total (inclusive) value under the current zoom; our own totals are computed once instead. */
    value: number;
    depth: number;
    x0: number;
    x1: number;
    id: number;
    highlight?: boolean;
    parent: FlameHierarchyNode<T> | null;
    children?: FlameHierarchyNode<T>[];
  }

  export interface FlameTooltip<T> {
    (selection: unknown): void;
    show(event: MouseEvent, d: FlameHierarchyNode<T>): void;
    hide(): void;
    destroy?(): void;
  }

  export interface FlameGraph<T> {
    (selection: unknown): void;
    width(): number;
    width(w: number): FlameGraph<T>;
    height(h: number | null): FlameGraph<T>;
    minHeight(h: number): FlameGraph<T>;
    cellHeight(h: number): FlameGraph<T>;
    minFrameSize(px: number): FlameGraph<T>;
    transitionDuration(ms: number): FlameGraph<T>;
    selfValue(on: boolean): FlameGraph<T>;
    sort(on: boolean | ((a: FlameHierarchyNode<T>, b: FlameHierarchyNode<T>) => number)): FlameGraph<T>;
    inverted(on: boolean): FlameGraph<T>;
    resetHeightOnZoom(on: boolean): FlameGraph<T>;
    title(text: string): FlameGraph<T>;
    tooltip(tip: FlameTooltip<T>): FlameGraph<T>;
    setColorMapper(fn: (d: FlameHierarchyNode<T>, original: string) => string): FlameGraph<T>;
    setSearchMatch(fn: (d: FlameHierarchyNode<T>, term: string) => boolean): FlameGraph<T>;
    setSearchHandler(fn: (results: FlameHierarchyNode<T>[], sum: number, total: number) => void): FlameGraph<T>;
    setDetailsHandler(fn: (text: string | null) => void): FlameGraph<T>;
    getName(fn: (d: FlameHierarchyNode<T>) => string): FlameGraph<T>;
    onClick(fn: (d: FlameHierarchyNode<T>) => void): FlameGraph<T>;
    search(term: string): void;
    clear(): void;
    resetZoom(): void;
    /** Zooms to a node of the current hierarchy, as a click on it does (onClick is called). */
    zoomTo(d: FlameHierarchyNode<T>): void;
    update(data?: T): FlameGraph<T>;
    destroy(): FlameGraph<T>;
  }

  export default function flamegraph<T>(): FlameGraph<T>;
}
