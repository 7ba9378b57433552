/**
 * A call tree as an expandable table, for the bottom-up view and the sandwich's two halves: one row
 * per frame with its time and share, a ▸/▾ button to show the frames under it, the heaviest first.
 * Rows are made when their parent opens, so a tree of 50,000 frames costs what is on screen.
 */
import type { FlameNode, FromReportWebview } from '../../src/shared/reportProtocol';
import { flameTotals } from '../../src/shared/flameTotals';
import { el } from '../common/dom';
import { fmtNum, fmtPct, formatLocation, type LocationContext } from '../common/format';
import { canOpen, type Host } from '../common/host';

/** Children shown under one row before "… N more". */
const CHILD_LIMIT = 100;

export interface TreeTableOptions {
  id: string;
  caption: string;
  /** The heading of the time column: "Self time in it" / "Time". */
  timeLabel: string;
  /** What the % column is a share of, in ms. */
  wholeMs: number;
  /** Levels open at first. */
  openLevels: number;
  host: Host<FromReportWebview>;
  loc: LocationContext;
}

/** The table of `root`'s children (the root itself is not a row). */
export function renderTreeTable(root: FlameNode, opts: TreeTableOptions): HTMLElement {
  const { totals } = flameTotals(root);
  const body = el('tbody');
  const table = el(
    'table',
    { id: opts.id, className: 'data-table tree-table', attrs: { role: 'treegrid' } },
    el('caption', { className: 'visually-hidden', text: opts.caption }),
    el('thead', {}, el('tr', {}, ...[opts.timeLabel, '%', 'Function', 'Location'].map((h, i) => el('th', { className: i < 2 ? 'num' : '', attrs: { scope: 'col' }, text: h })))),
    body,
  );
  const rowsOf = (node: FlameNode, depth: number): HTMLElement[] => {
    const kids = node.children.slice(0, CHILD_LIMIT);
    const rows = kids.flatMap((child) => row(child, depth));
    if (node.children.length > CHILD_LIMIT) rows.push(el('tr', { className: 'tree-more' }, el('td', { attrs: { colspan: 4 }, text: `… ${node.children.length - CHILD_LIMIT} more, each smaller` })));
    return rows;
  };
  const row = (node: FlameNode, depth: number): HTMLElement[] => {
    const total = totals.get(node) ?? 0;
    const hasKids = node.children.length > 0;
    const toggle = el('button', { className: 'tree-toggle', attrs: { type: 'button', 'aria-label': `Show what is under ${node.name}`, hidden: !hasKids }, text: '▸' });
    const where = node.url ? formatLocation(node.url, node.line, node.column, opts.loc) : null;
    const indent = el('span', { className: 'tree-indent' });
    indent.style.width = `${depth * 14}px`;
    const name = el('td', { className: 'tree-name' }, indent, toggle, el('span', { text: node.name }));
    const tr = el(
      'tr',
      { attrs: { 'aria-level': depth + 1, 'aria-expanded': hasKids ? 'false' : undefined, 'data-name': node.name } },
      el('td', { className: 'num', text: fmtNum(total, 1) }),
      el('td', { className: 'num', text: fmtPct(total, opts.wholeMs) }),
      name,
      el('td', { className: 'loc', text: where?.text ?? '', title: where?.full }),
    );
    let shown: HTMLElement[] | null = null;
    const flip = () => {
      if (!hasKids) return;
      if (shown) {
        for (const r of shown) r.remove();
        for (const r of [...body.querySelectorAll<HTMLElement>('tr')]) if (r.dataset.under?.split(' ').includes(String(id))) r.remove();
        shown = null;
        toggle.textContent = '▸';
        tr.setAttribute('aria-expanded', 'false');
        return;
      }
      shown = rowsOf(node, depth + 1);
      for (const r of shown) r.dataset.under = `${tr.dataset.under ?? ''} ${id}`.trim();
      tr.after(...shown);
      toggle.textContent = '▾';
      tr.setAttribute('aria-expanded', 'true');
    };
    const id = nextId++;
    toggle.addEventListener('click', (event) => {
      event.stopPropagation();
      flip();
    });
    if (opts.host.connected && canOpen(node.url, node.line)) {
      tr.classList.add('clickable');
      tr.title = 'Open in the editor';
      tr.addEventListener('click', () => opts.host.openSource({ type: 'openSource', url: node.url, line: node.line, column: node.column }));
    }
    tr.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowRight' && !shown) flip();
      if (event.key === 'ArrowLeft' && shown) flip();
    });
    tr.tabIndex = 0;
    const out = [tr];
    if (depth < opts.openLevels - 1 && hasKids) queueMicrotask(flip);
    return out;
  };
  let nextId = 1;
  body.append(...rowsOf(root, 0));
  return el('div', { className: 'table-wrap tree-wrap' }, table);
}
