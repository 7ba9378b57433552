/**
 * The functions whose self time changed most from A to B: the biggest increases (slower in B) and
 * decreases (faster in B), in the comparison's unit. A function that starts elsewhere in B (a line
 * was added above it) is one row marked "moved", never a new and a gone one. A row opens its
 * function when the host can.
 */
import type { CompareModel, CompareNormalization, FromCompareWebview, FunctionChange } from '../../src/shared/compareProtocol';
import { normalizationScale } from '../../src/shared/model/compareModel';
import { clear, el, emptyNote, openOnActivate } from '../common/dom';
import { formatLocation, type LocationContext } from '../common/format';
import { describeMove, fmtPctChange, fmtTime, fmtTimeChange } from './compareFormat';
import { canOpen, type Host } from '../common/host';

const UNIT_HINT: Record<CompareNormalization, string> = {
  ms: 'Self time in ms, change B − A.',
  share: 'Self time as % of each profile, change B − A in percentage points.',
  request: 'Self time in µs per request served in each run’s measured window, change B − A: a run that served more requests spent more in total, not per request.',
};

export function renderTopChanges(section: HTMLElement, model: CompareModel, normalization: CompareNormalization, host: Host<FromCompareWebview>): void {
  clear(section);
  section.append(el('h2', { text: 'Biggest changes in self time' }));
  const top = model.topChanges[normalization];
  if (!model.profileMs.base || !model.profileMs.other) {
    section.append(el('div', { id: 'top-increases', className: 'is-empty' }, emptyNote('No function changes:', model.flameMissing ?? 'a run has no CPU profile.')));
    return;
  }
  section.append(
    el('p', {
      className: 'hint',
      text:
        UNIT_HINT[normalization] +
        ' Functions are matched by name and file, then by the nearest line, so one that moved is still itself; one found in a single run counts 0 in the other.' +
        (host.connected ? ' Click a row to open the function.' : ''),
    }),
  );
  if (model.moved.count > 0) section.append(movedNote(model));
  const loc = (f: FunctionChange): LocationContext => ({ cwd: (f.presence === 'base' ? model.base.cwd : model.other.cwd) ?? null });
  section.append(
    el(
      'div',
      { className: 'changes-grid' },
      table('top-increases', 'Slower in B (more self time)', top.increases, 'No function has more self time in B.', normalization, host, loc, model),
      table('top-decreases', 'Faster in B (less self time)', top.decreases, 'No function has less self time in B.', normalization, host, loc, model),
    ),
  );
}

function table(
  id: string,
  caption: string,
  rows: FunctionChange[],
  none: string,
  normalization: CompareNormalization,
  host: Host<FromCompareWebview>,
  loc: (f: FunctionChange) => LocationContext,
  model: CompareModel,
): HTMLElement {
  const scale = normalizationScale(normalization, model.profileMs, model.requests ?? null);
  const wrap = el('div', { className: 'changes-block' }, el('h3', { text: caption }));
  if (rows.length === 0) {
    wrap.append(el('div', { id, className: 'is-empty' }, emptyNote(none)));
    return wrap;
  }
  const t = el('table', { id, className: 'data-table changes-table', attrs: { 'data-normalization': normalization } });
  t.append(
    el('caption', { className: 'visually-hidden', text: caption }),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { attrs: { scope: 'col' }, text: 'Function' }),
        el('th', { className: 'num', attrs: { scope: 'col' }, text: 'A self' }),
        el('th', { className: 'num', attrs: { scope: 'col' }, text: 'B self' }),
        el('th', { className: 'num', attrs: { scope: 'col' }, text: 'Change' }),
        el('th', { className: 'num', attrs: { scope: 'col' }, text: '%' }),
      ),
    ),
  );
  const body = el('tbody');
  for (const f of rows) {
    const [a, b] = normalization === 'share' ? [f.baseSelfPct, f.otherSelfPct] : [f.baseSelfMs * scale.base, f.otherSelfMs * scale.other];
    const where = f.url ? formatLocation(f.url, f.line, f.column, loc(f)) : null;
    const moved = f.movedFrom ? el('span', { className: 'moved', text: describeMove(f.movedFrom, f) }) : null;
    const pct = f.presence === 'other' ? 'new in B' : f.presence === 'base' ? 'gone in B' : f.deltaPct === null ? 'from 0' : fmtPctChange(f.deltaPct);
    const tr = el(
      'tr',
      { attrs: { 'data-presence': f.presence, 'data-moved': f.movedFrom ? 'true' : 'false' } },
      el(
        'td',
        { className: 'fn-cell' },
        el('span', { className: 'fn-name', text: f.name }),
        where ? el('span', { className: 'location', text: where.text, title: where.full }) : el('span', { className: 'muted location', text: f.line > 0 ? `script without a file, line ${f.line}` : 'native / VM' }),
        moved,
      ),
      el('td', { className: 'num', text: fmtTime(a, normalization) }),
      el('td', { className: 'num', text: fmtTime(b, normalization) }),
      el('td', { className: `num change ${f.delta > 0 ? 'worse' : 'better'}`, text: fmtTimeChange(f.delta, normalization) }),
      el('td', { className: 'num muted', text: pct }),
    );
    const side = f.presence === 'base' ? 'base' : 'other';
    if (host.connected && canOpen(f.url, f.line)) {
      openOnActivate(tr, `Open in the editor (as in run ${side === 'base' ? 'A' : 'B'})`, () => host.openSource({ type: 'openSource', side, url: f.url, line: f.line, column: f.column }));
    }
    body.append(tr);
  }
  t.append(body);
  wrap.append(el('div', { className: 'table-wrap' }, t));
  return wrap;
}

/** "3 functions start elsewhere in B (the source changed): handle, render, (anonymous) …" */
function movedNote(model: CompareModel): HTMLElement {
  const { count, functions } = model.moved;
  const shown = functions.slice(0, 5).map((m) => `${m.name} (${m.from.line} → ${m.to.line})`);
  const more = count > shown.length ? `, and ${(count - shown.length).toLocaleString('en-US')} more` : '';
  return el('p', {
    id: 'moved-note',
    className: 'hint',
    text: `${count.toLocaleString('en-US')} ${count === 1 ? 'function starts' : 'functions start'} elsewhere in B, so the source changed between the runs; they are matched as moved: ${shown.join(', ')}${more}.`,
  });
}
