/**
 * The flame graph section's tabs: CPU time and, when the run sampled allocations, allocated bytes
 * ("All allocations") and, after a survivors pass, the bytes that outlived a young GC ("Survivors").
 * Without an allocation tree the section is the CPU flame graph alone, as before.
 */
import type { FlameNode, FromReportWebview } from '../../src/shared/reportProtocol';
import { el } from '../common/dom';
import type { LocationContext } from '../common/format';
import type { Host } from '../common/host';
import type { Palette } from '../common/theme';
import { ALLOCATED_BYTES, CPU_TIME, SURVIVOR_BYTES, renderFlameSection, type FlameUnit, type FlameView } from './flameGraph';

export type FlameTab = 'cpu' | 'alloc' | 'survivors';

export interface FlameTabsInput {
  cpu: FlameNode | null;
  /** The CPU tree's inclusive totals, when its builder has them already. */
  cpuTotals?: Map<FlameNode, number>;
  cpuMissing: string;
  alloc: FlameNode | null;
  /** What the allocation graph's widths are (live objects only); ALLOCATED_BYTES when absent. */
  allocUnit?: FlameUnit;
  /** What outlived a young GC (the survivors pass), beside all allocations; null or absent without one. */
  survivors?: FlameNode | null;
  /** What the CPU graph's widths are a share of (a selected range); CPU_TIME when absent. */
  cpuUnit?: FlameUnit;
  /** With a time-ordered profile: the CPU view bar, and the table view when one is picked instead of the flame graph. */
  cpuViews?: { bar: HTMLElement; table: { title: string; draw(container: HTMLElement): void } | null };
}

/** Draws the chosen tab's flame graph (with the tab bar when there are two); `onPick` redraws. */
export function renderFlameTabs(
  section: HTMLElement,
  input: FlameTabsInput,
  tab: FlameTab,
  onPick: (tab: FlameTab) => void,
  host: Host<FromReportWebview>,
  loc: LocationContext,
  palette: Palette,
): FlameView | null {
  const survivors = input.survivors ?? null;
  if (input.alloc === null && survivors === null) return renderCpu(section, input, host, loc, palette);
  const bar = el('div', { id: 'flame-tabs', className: 'flame-tabs', attrs: { role: 'tablist', 'aria-label': 'Flame graph' } });
  const tabs: [FlameTab, string][] = [['cpu', 'CPU time']];
  if (input.alloc !== null) tabs.push(['alloc', survivors ? 'All allocations' : 'Allocations']);
  if (survivors) tabs.push(['survivors', 'Survivors']);
  for (const [id, label] of tabs) {
    const selected = id === tab;
    const button = el('button', { id: `flame-tab-${id}`, className: 'flame-tab', attrs: { type: 'button', role: 'tab', 'aria-selected': selected ? 'true' : 'false' }, text: label });
    if (!selected) button.addEventListener('click', () => onPick(id));
    bar.append(button);
  }
  section.append(bar);
  if (tab === 'survivors' && survivors) return renderFlameSection(section, survivors, '', host, loc, palette, SURVIVOR_BYTES);
  return tab === 'alloc' && input.alloc !== null
    ? renderFlameSection(section, input.alloc, '', host, loc, palette, input.allocUnit ?? ALLOCATED_BYTES)
    : renderCpu(section, input, host, loc, palette);
}

function renderCpu(section: HTMLElement, input: FlameTabsInput, host: Host<FromReportWebview>, loc: LocationContext, palette: Palette): FlameView | null {
  const views = input.cpuViews;
  if (!views) return renderFlameSection(section, input.cpu, input.cpuMissing, host, loc, palette, input.cpuUnit ?? CPU_TIME, input.cpuTotals);
  if (!views.table) {
    const view = renderFlameSection(section, input.cpu, input.cpuMissing, host, loc, palette, input.cpuUnit ?? CPU_TIME, input.cpuTotals);
    section.querySelector('h2')?.after(views.bar);
    return view;
  }
  const body = el('div', { id: 'cpu-table-view' });
  section.append(el('h2', { text: views.table.title }), views.bar, body);
  views.table.draw(body);
  return null;
}
