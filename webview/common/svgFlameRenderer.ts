/**
 * d3-flame-graph v5 (ES module build, its CSS bundled beside the page's) behind the renderer
 * interface of flameRenderer.ts: drawn top-down, no transitions on big trees (research §5.3),
 * frames as SVG groups named after their function. The compare page's differential flame graph
 * draws with it (it uses d3-flame-graph's computeDelta through `configure`); the report draws on a
 * canvas (flameCanvas.ts).
 */
import flamegraph, { type FlameGraph, type FlameHierarchyNode, type FlameTooltip } from 'd3-flame-graph';
import { select } from 'd3-selection';
import type { FlameFrame, FlameRenderer, FlameRendererConfig } from './flameRenderer';

/** Above this many nodes, d3 transitions cost more than they show (research §5.3). */
const TRANSITION_NODE_LIMIT = 5000;

export function svgFlameRenderer<T>(configure: (chart: FlameGraph<T>) => void = () => undefined) {
  return (config: FlameRendererConfig<T>): FlameRenderer<T> => {
    const tip = (() => undefined) as unknown as FlameTooltip<T>;
    tip.show = (event, d) => config.tooltip.show(event, d as FlameFrame<T>);
    tip.hide = () => config.tooltip.hide();
    const chart: FlameGraph<T> = flamegraph<T>()
      .selfValue(true)
      .sort(false) // the trees come heaviest-first already
      .inverted(true)
      .cellHeight(config.cellHeight)
      .minFrameSize(config.minFrameSize)
      .transitionDuration(config.nodeCount > TRANSITION_NODE_LIMIT ? 0 : 250)
      .resetHeightOnZoom(true)
      .title('')
      .tooltip(tip)
      .setColorMapper((d) => config.color(d as FlameFrame<T>))
      .setSearchMatch((d, term) => config.match(d as FlameFrame<T>, term))
      .setSearchHandler((results, sum) => config.onSearch(results as FlameFrame<T>[], sum))
      .setDetailsHandler(() => undefined)
      .onClick((d) => config.onZoom(d as FlameFrame<T>));
    configure(chart);
    let container: HTMLElement | null = null;
    return {
      mount(box, data, width) {
        container = box;
        openSourceOnModifierClick(box, config.openSource);
        chart.width(width);
        select(box).datum(data).call(chart);
      },
      setWidth(width) {
        chart.width(width).update();
      },
      update(data) {
        if (data === undefined) chart.update();
        else chart.update(data);
      },
      search: (term) => chart.search(term),
      clear: () => chart.clear(),
      zoomTo: (d) => chart.zoomTo(d as FlameHierarchyNode<T>),
      resetZoom: () => chart.resetZoom(),
      frameCount: () => container?.querySelectorAll('svg g').length ?? 0,
    };
  };
}

/** Ctrl/⌘-click opens the frame's source instead of zooming (captured before d3's own handler). */
function openSourceOnModifierClick<T>(container: HTMLElement, openSource: (node: T) => void): void {
  container.addEventListener(
    'click',
    (event) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      const frame = (event.target as Element | null)?.closest('g');
      const d = frame ? (frame as unknown as { __data__?: FlameHierarchyNode<T> }).__data__ : undefined;
      event.stopPropagation();
      event.preventDefault();
      if (d) openSource(d.data);
    },
    true,
  );
}
