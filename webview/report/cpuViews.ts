/**
 * The CPU half of the report when the model has the profile in time order: the flame graph, the
 * bottom-up table and the sandwich of one function, each for the selected time range and with
 * node_modules packages and Node internals folded or not. The page keeps the state; this file
 * draws the bar that changes it and the view it picks.
 */
import { bottomUpTree, calleesTree, callersTree, topDownTree } from '../../src/shared/profile/profileTrees';
import type { CollapseOptions } from '../../src/shared/profile/collapse';
import type { ProfileIndex } from '../../src/shared/profile/profileIndex';
import type { FlameNode, FromReportWebview } from '../../src/shared/reportProtocol';
import { el, emptyNote } from '../common/dom';
import { fmtMs, type LocationContext } from '../common/format';
import type { Host } from '../common/host';
import { renderTreeTable } from './treeTable';

export type CpuViewMode = 'flame' | 'bottom-up' | 'sandwich';

export interface CpuViewState {
  mode: CpuViewMode;
  collapse: CollapseOptions;
  /** The function the sandwich shows (an index into the profile's functions). */
  sandwichFn: number | null;
}

const MODES: [CpuViewMode, string, string][] = [
  ['flame', 'Flame graph', 'Top-down: callers above, callees below; width = total time'],
  ['bottom-up', 'Bottom-up', 'The functions where the time was spent, and under each who called them'],
  ['sandwich', 'Callers & callees', 'One function: who called it, and what it called (a sandwich view)'],
];

/** The view switcher and the fold toggles; `onChange` gets the new state. */
export function renderCpuViewBar(state: CpuViewState, rangeText: string | null, onChange: (next: CpuViewState) => void): HTMLElement {
  const modes = el('div', { id: 'cpu-view-modes', className: 'segmented', attrs: { role: 'radiogroup', 'aria-label': 'CPU view' } });
  for (const [mode, label, title] of MODES) {
    const b = el('button', { className: 'segment', attrs: { type: 'button', role: 'radio', 'aria-checked': state.mode === mode ? 'true' : 'false', 'data-mode': mode }, text: label, title });
    b.addEventListener('click', () => onChange({ ...state, mode }));
    modes.append(b);
  }
  const fold = (id: string, key: keyof CollapseOptions, label: string, title: string) => {
    const box = el('vscode-checkbox', { id, attrs: { checked: state.collapse[key], title } }, label);
    box.addEventListener('change', () => onChange({ ...state, collapse: { ...state.collapse, [key]: (box as unknown as { checked: boolean }).checked } }));
    return box;
  };
  return el(
    'div',
    { className: 'toolbar cpu-view-bar' },
    modes,
    fold('fold-node-modules', 'dependencies', 'Fold node_modules', 'Show each package’s consecutive frames as one frame named after the package'),
    fold('fold-node-internals', 'nodeInternals', 'Fold Node internals', 'Show consecutive frames of Node’s own code as one “Node internals” frame'),
    el('span', { className: 'spacer' }),
    rangeText ? el('span', { id: 'cpu-range-note', className: 'toolbar-note range-note', text: rangeText }) : null,
  );
}

export interface CpuViewInput {
  index: ProfileIndex;
  selfUs: Float64Array;
  /** The time the views cover, ms (the range or the whole profile). */
  wholeMs: number;
  /** A time range is selected (else: the whole profile). */
  ranged: boolean;
  state: CpuViewState;
  host: Host<FromReportWebview>;
  loc: LocationContext;
}

/**
 * The flame graph's tree; children under `minShare` of the whole merged into "(N smaller frames)".
 * With `totals`, each node's inclusive time as the tree was built (no second pass over it).
 */
export function topDown(input: CpuViewInput, minShare = 0, totals?: Map<FlameNode, number>): FlameNode | null {
  return topDownTree(input.index, input.selfUs, input.state.collapse, minShare, totals);
}

/** The bottom-up table, or the sandwich of the chosen function, into `container`. */
export function renderTableView(container: HTMLElement, input: CpuViewInput): void {
  const { index, selfUs, wholeMs, state, host, loc, ranged } = input;
  if (state.mode === 'bottom-up') {
    const root = bottomUpTree(index, selfUs, state.collapse);
    container.append(el('p', { className: 'hint', text: 'Each function by the time spent in it (self time); open one to see who called it, and with how much of that time.' }));
    container.append(root && root.children.length > 0 ? renderTreeTable(root, { id: 'bottom-up', caption: 'Bottom-up: functions by self time, with their callers', timeLabel: 'Self ms', wholeMs, openLevels: 1, host, loc }) : emptyNote('No samples:', 'nothing ran in this range.'));
    return;
  }
  const fn = state.sandwichFn;
  if (fn === null) {
    container.append(emptyNote('No function picked:', 'press “Callers & callees” on a row of Hot functions, or click a box in the timeline.'));
    return;
  }
  const info = index.fn(fn);
  const callers = callersTree(index, selfUs, fn);
  const callees = calleesTree(index, selfUs, fn);
  const total = callers ? callers.value + sumChildren(callers) : 0;
  container.append(
    el('h3', { id: 'sandwich-title', text: `${info.name}: ${fmtMs(total)} in ${ranged ? 'the selected range' : 'the profile'}` }),
    el('p', { className: 'hint', text: 'Callers: who called it, each with the part of its total time spent under that caller. Callees: what it called, merged over every call.' }),
  );
  const half = (id: string, title: string, root: FlameNode | null) =>
    el('div', { className: 'sandwich-half' }, el('h4', { text: title }), root && root.children.length > 0 ? renderTreeTable(root, { id, caption: title, timeLabel: 'ms', wholeMs: total, openLevels: 2, host, loc }) : emptyNote('None', ''));
  container.append(el('div', { id: 'sandwich', className: 'sandwich' }, half('sandwich-callers', `Callers of ${info.name}`, callers), half('sandwich-callees', `Callees of ${info.name} (self ${fmtMs(callees?.value ?? 0)})`, callees)));
}

function sumChildren(node: FlameNode): number {
  let sum = 0;
  const stack = [...node.children];
  while (stack.length > 0) {
    const n = stack.pop()!;
    sum += n.value;
    stack.push(...n.children);
  }
  return sum;
}
