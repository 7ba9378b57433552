/**
 * The functions whose allocation changed most from A to B, in bytes per request when both runs ran
 * under load (else per second): what the GC of B has more or less to collect, and whose code made
 * it. A row opens its function when the host can. A run without allocations says "not collected".
 */
import type { AllocatorChange, CompareModel, FromCompareWebview } from '../../src/shared/compareProtocol';
import { fmtBytes } from '../../src/shared/formatBytes';
import { clear, el, emptyNote, openOnActivate } from '../common/dom';
import { formatLocation } from '../common/format';
import { canOpen, type Host } from '../common/host';

export function renderAllocChanges(section: HTMLElement, model: CompareModel, host: Host<FromCompareWebview>): void {
  clear(section);
  section.append(el('h2', { text: 'Biggest changes in allocation' }));
  const changes = model.allocChanges ?? null;
  if (!changes) {
    section.append(el('div', { id: 'alloc-changes', className: 'is-empty' }, emptyNote('Allocations:', model.allocMissing ?? 'not collected in either run (the default preset samples them).')));
    return;
  }
  const unit = changes.unit === 'bytes/request' ? 'per request' : 'per second';
  section.append(
    el('p', {
      className: 'hint',
      text: `Bytes each function allocated in its own body, ${unit} (sampled, garbage included), change B − A; matched like the self-time tables.${host.connected ? ' Click a row to open the function.' : ''}`,
    }),
  );
  if (changes.functions.length === 0) {
    section.append(el('div', { id: 'alloc-changes', className: 'is-empty' }, emptyNote('No function allocates differently.')));
    return;
  }
  const amount = (bytes: number) => (changes.unit === 'bytes/request' ? fmtBytes(bytes) : `${fmtBytes(bytes)}/s`);
  const signed = (bytes: number) => `${bytes > 0 ? '+' : '\u2212'}${amount(Math.abs(bytes))}`;
  const head = el('tr', {}, ...['Function', `A ${unit}`, `B ${unit}`, 'Change'].map((h, i) => el('th', { className: i > 0 ? 'num' : '', attrs: { scope: 'col' }, text: h })));
  const body = el('tbody');
  for (const f of changes.functions) body.append(row(f, model, host, amount, signed));
  section.append(el('div', { className: 'table-wrap' }, el('table', { id: 'alloc-changes', className: 'data-table changes-table' }, el('thead', {}, head), body)));
}

function row(f: AllocatorChange, model: CompareModel, host: Host<FromCompareWebview>, amount: (b: number) => string, signed: (b: number) => string): HTMLElement {
  const side = f.presence === 'base' ? 'base' : 'other';
  const where = f.url ? formatLocation(f.url, f.line, f.column, { cwd: (side === 'base' ? model.base.cwd : model.other.cwd) ?? null }) : null;
  const tr = el(
    'tr',
    { attrs: { 'data-presence': f.presence } },
    el(
      'td',
      { className: 'fn-cell' },
      el('span', { className: 'fn-name', text: f.name }),
      where ? el('span', { className: 'location', text: where.text, title: where.full }) : el('span', { className: 'muted location', text: 'native / VM' }),
    ),
    el('td', { className: 'num', text: f.presence === 'other' ? '–' : amount(f.base) }),
    el('td', { className: 'num', text: f.presence === 'base' ? '–' : amount(f.other) }),
    el('td', { className: `num change ${f.change > 0 ? 'worse' : 'better'}`, text: signed(f.change) }),
  );
  if (host.connected && canOpen(f.url, f.line)) {
    openOnActivate(tr, `Open in the editor (as in run ${side === 'base' ? 'A' : 'B'})`, () => host.openSource({ type: 'openSource', side, url: f.url, line: f.line, column: f.column }));
  }
  return tr;
}
