/** Sortable tables: hot functions and deopts. Cells are text; a row opens its source when the host can. */
import type { CpuFunctionSummary, CpuSummary, DeoptSummaryEntry, SourcePosition } from '../../src/shared/model/summary';
import type { FromReportWebview } from '../../src/shared/reportProtocol';
import { el, emptyNote, openOnActivate } from '../common/dom';
import { fmtDuration, fmtNum, fmtPct, formatLocation, plural, type LocationContext } from '../common/format';
import { canOpen, type Host } from '../common/host';

interface Column<R> {
  key: string;
  label: string;
  numeric?: boolean;
  /** Sort key; numbers sort descending first, text ascending. */
  value: (row: R) => number | string;
  cell: (row: R) => Node | string;
  title?: string;
}

interface TableSpec<R> {
  id: string;
  caption: string;
  columns: Column<R>[];
  rows: R[];
  initialSort: string;
  position: (row: R) => SourcePosition | null;
  /** Rows shown until "Show all" is pressed. */
  limit?: number;
  /** data-* attributes of a row, for the page to find it (the timeline's deopt markers). */
  rowData?: (row: R) => Record<string, string>;
}

function sortableTable<R>(spec: TableSpec<R>, host: Host<FromReportWebview>): HTMLElement {
  const table = el('table', { id: spec.id, className: 'data-table' });
  table.append(el('caption', { className: 'visually-hidden', text: spec.caption }));
  const headRow = el('tr');
  const tbody = el('tbody');
  table.append(el('thead', {}, headRow), tbody);

  let sortKey = spec.initialSort;
  let descending = spec.columns.find((c) => c.key === sortKey)?.numeric ?? false;
  const headers = new Map<string, HTMLTableCellElement>();

  for (const col of spec.columns) {
    const button = el('button', { className: 'sort-button', attrs: { type: 'button' }, text: col.label, title: col.title ?? `Sort by ${col.label}` });
    const th = el('th', { className: col.numeric ? 'num' : '', attrs: { scope: 'col', 'data-key': col.key } }, button);
    button.addEventListener('click', () => {
      if (sortKey === col.key) descending = !descending;
      else {
        sortKey = col.key;
        descending = col.numeric ?? false;
      }
      render();
    });
    headers.set(col.key, th);
    headRow.append(th);
  }

  const rowsWithNodes = spec.rows.map((row) => {
    const tr = el('tr', { attrs: Object.fromEntries(Object.entries(spec.rowData?.(row) ?? {}).map(([k, v]) => [`data-${k}`, v])) });
    for (const col of spec.columns) tr.append(el('td', { className: col.numeric ? 'num' : '' }, col.cell(row)));
    const pos = spec.position(row);
    if (host.connected && pos && canOpen(pos.url, pos.line)) {
      openOnActivate(tr, 'Open in the editor', () => host.openSource({ type: 'openSource', url: pos.url, line: pos.line, column: pos.column }));
    }
    return { row, tr };
  });

  let limit = spec.limit ?? Infinity;
  const more = el('vscode-button', { className: 'show-all', attrs: { secondary: true }, text: `Show all ${spec.rows.length} rows` });
  more.hidden = spec.rows.length <= limit;
  more.addEventListener('click', () => {
    limit = Infinity;
    more.hidden = true;
    render();
  });

  function render(): void {
    const col = spec.columns.find((c) => c.key === sortKey)!;
    const sorted = [...rowsWithNodes].sort((a, b) => {
      const va = col.value(a.row);
      const vb = col.value(b.row);
      const cmp = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
      return descending ? -cmp : cmp;
    });
    for (const [key, th] of headers) th.setAttribute('aria-sort', key === sortKey ? (descending ? 'descending' : 'ascending') : 'none');
    tbody.replaceChildren(...sorted.slice(0, limit).map((r) => r.tr));
  }
  render();
  return el('div', { className: 'table-wrap' }, table, more);
}

const HOT_ROWS = 200;

/** In a selected time range: its length, and its functions' times with their index for the sandwich. */
export interface HotFunctionsRange {
  text: string;
  sandwich(fn: number): void;
}

export function renderHotFunctions(section: HTMLElement, cpu: CpuSummary | null, missing: string, host: Host<FromReportWebview>, loc: LocationContext, views: HotFunctionsRange | null = null): void {
  section.append(el('h2', { text: 'Hot functions' }));
  if (!cpu || cpu.functions.length === 0) {
    section.append(el('div', { id: 'hot-functions', className: 'is-empty' }, emptyNote('No CPU profile:', missing)));
    return;
  }
  const rows = cpu.functions.slice(0, HOT_ROWS);
  const wall = cpu.durationMs;
  section.append(
    el('p', {
      className: 'hint',
      text:
        `${cpu.functions.length > HOT_ROWS ? `Top ${HOT_ROWS} of ${plural(cpu.functions.length, 'function')}` : plural(cpu.functions.length, 'function')} by self time, ` +
        (views ? `${views.text}.` : `${fmtDuration(wall)} profiled, ${plural(cpu.sampleCount, 'sample')} every ~${fmtNum(cpu.sampleIntervalMs, 2)} ms.`) +
        (host.connected ? ' Click a row to open the function.' : ''),
    }),
  );
  const table = sortableTable(
    {
      id: 'hot-functions',
      caption: 'Hot functions',
      initialSort: 'self',
      rows,
      limit: 25,
      position: (f) => (f.url ? { url: f.url, line: f.line, column: f.column } : null),
      columns: [
        { key: 'self', label: 'Self ms', numeric: true, value: (f) => f.selfMs, cell: (f) => fmtNum(f.selfMs, 1) },
        {
          key: 'selfPct',
          label: 'Self %',
          numeric: true,
          value: (f) => f.selfMs,
          cell: (f) => {
            const bar = el('span', { className: 'bar' });
            bar.style.width = `${Math.min(100, wall > 0 ? (f.selfMs / wall) * 100 : 0)}%`;
            return el('span', { className: 'pct' }, el('span', { className: 'bar-track' }, bar), el('span', { text: fmtPct(f.selfMs, wall) }));
          },
        },
        { key: 'total', label: 'Total ms', numeric: true, value: (f) => f.totalMs, cell: (f) => fmtNum(f.totalMs, 1) },
        { key: 'name', label: 'Function', value: (f) => f.name, cell: (f) => el('span', { className: 'fn-name', text: f.name }) },
        {
          key: 'location',
          label: 'Location',
          value: (f) => `${f.url}:${String(f.line).padStart(8, '0')}`,
          cell: (f) => {
            if (!f.url) return el('span', { className: 'muted', text: f.line > 0 ? `script without a file, line ${f.line}` : 'native / VM' });
            const l = formatLocation(f.url, f.line, f.column, loc);
            return el('span', { className: 'location', text: l.text, title: l.full });
          },
        },
        ...(views
          ? [
              {
                key: 'sandwich',
                label: '',
                value: (f: CpuFunctionSummary) => f.name,
                title: 'Who called it, and what it called',
                cell: (f: CpuFunctionSummary) => {
                  const fn = (f as CpuFunctionSummary & { fn?: number }).fn;
                  if (fn === undefined) return '';
                  const b = el('button', { className: 'inline-link sandwich-link', attrs: { type: 'button', 'data-fn': fn }, text: 'Callers & callees', title: `Show who called ${f.name} and what it called` });
                  b.addEventListener('click', () => views.sandwich(fn));
                  return b;
                },
              },
            ]
          : []),
      ],
    },
    host,
  );
  section.append(table);
}

export function renderDeopts(section: HTMLElement, deopts: DeoptSummaryEntry[], missing: string | null, host: Host<FromReportWebview>, loc: LocationContext): void {
  section.append(el('h2', { text: 'Deopts' }));
  if (deopts.length === 0) {
    section.append(el('div', { id: 'deopt-table', className: 'is-empty' }, missing ? emptyNote('No deopt data:', missing) : emptyNote('No deopts recorded:', 'V8 kept every optimized function it compiled in this run.')));
    return;
  }
  const events = deopts.reduce((n, d) => n + d.count, 0);
  section.append(
    el('p', {
      className: 'hint',
      text: `${plural(deopts.length, 'site')}, ${plural(events, 'event')}: where V8 threw optimized code away, and why.${host.connected ? ' Click a row to open the position.' : ''}`,
    }),
  );
  const place = (p: SourcePosition) => formatLocation(p.url, p.line, p.column, loc);
  const table = sortableTable(
    {
      id: 'deopt-table',
      caption: 'Deopts',
      initialSort: 'count',
      rows: deopts,
      rowData: (d) => ({ function: d.optimizedFunction, reason: d.reason }),
      limit: 50,
      position: (d) => (d.url ? { url: d.url, line: d.line, column: d.column } : null),
      columns: [
        { key: 'count', label: 'Count', numeric: true, value: (d) => d.count, cell: (d) => d.count.toLocaleString('en-US') },
        { key: 'reason', label: 'Reason', value: (d) => d.reason, cell: (d) => el('span', { className: 'reason', text: d.reason }) },
        {
          key: 'function',
          label: 'Function',
          value: (d) => d.function,
          cell: (d) =>
            el(
              'span',
              {},
              el('span', { className: 'fn-name', text: d.function || '(anonymous)' }),
              d.optimizedFunction && d.optimizedFunction !== d.function ? el('span', { className: 'muted', text: ` in optimized ${d.optimizedFunction}` }) : null,
            ),
        },
        {
          key: 'location',
          label: 'Location',
          value: (d) => `${d.url}:${String(d.line).padStart(8, '0')}`,
          cell: (d) => {
            const main = place(d);
            const wrap = el('span', { className: 'location' }, el('span', { text: main.text, title: main.full }));
            for (const at of d.inlinedAt) {
              const l = place(at);
              const link = el('span', { className: 'inlined-at' }, el('span', { className: 'muted', text: ' inlined at ' }));
              const target = el('span', { text: l.text, title: l.full });
              if (host.connected && canOpen(at.url, at.line)) {
                target.className = 'inline-link';
                target.tabIndex = 0;
                target.setAttribute('role', 'link');
                const open = () => host.openSource({ type: 'openSource', url: at.url, line: at.line, column: at.column });
                target.addEventListener('click', open);
                target.addEventListener('keydown', (event) => {
                  if (event.key === 'Enter') {
                    event.stopPropagation();
                    open();
                  }
                });
              }
              link.append(target);
              wrap.append(link);
            }
            return wrap;
          },
        },
        { key: 'kind', label: 'Kind', value: (d) => d.kind, cell: (d) => `${d.kind}${d.tier ? ` · ${d.tier}` : ''}` },
        ...(deopts.some((d) => whenText(d) !== '')
          ? [{ key: 'when', label: 'When', value: (d: DeoptSummaryEntry) => whenText(d), cell: (d: DeoptSummaryEntry) => el('span', { className: 'muted', text: whenText(d) }), title: 'Sort by when (under load: warm-up, the measured window, after it) and where (the process)' }]
          : []),
      ],
    },
    host,
  );
  section.append(table);
}

/**
 * Under load, deopts outside the measured window are marked (a stop's "code dependencies" deopts at
 * exit are not the load's), and with several processes, which ones had it.
 */
function whenText(d: DeoptSummaryEntry): string {
  const parts: string[] = [];
  if (d.afterWindow) parts.push(d.afterWindow === d.count ? 'after the load' : `${d.afterWindow} after the load`);
  if (d.beforeWindow) parts.push(d.beforeWindow === d.count ? 'warm-up' : `${d.beforeWindow} in warm-up`);
  if (d.afterWindow !== undefined && d.count - (d.afterWindow ?? 0) - (d.beforeWindow ?? 0) === d.count) parts.push('under load');
  if (d.processes && d.processes.length > 1) parts.push(`${d.processes.length} processes`);
  else if (d.processes?.length === 1 && d.processes[0]!.includes('/')) parts.push(`thread ${d.processes[0]}`);
  return parts.join(' · ');
}
