/**
 * Two runs under load, per request: req/s, latency, failed requests, GC and CPU per request of
 * each run's measured window, with what the figures can and cannot say. When only one run was
 * under load, the section says so and compares nothing.
 */
import type { CompareModel } from '../../src/shared/compareProtocol';
import { el, emptyNote } from '../common/dom';
import { metricsTable } from './metrics';

/** Appends the section to `parent`; nothing when neither run was under load. */
export function renderPerRequest(parent: HTMLElement, model: CompareModel): void {
  const load = model.load;
  if (!load) return;
  const section = el('section', { id: 'load-section', className: 'panel', attrs: { 'aria-label': 'Under load, per request' } });
  section.append(el('h2', { text: 'Under load, per request' }));
  const notes = el('ul', { id: 'compare-load-notes', className: 'load-notes' });
  for (const note of load.notes) notes.append(el('li', { text: note }));
  if (load.rows.length === 0) {
    section.append(el('div', { id: 'compare-load', className: 'is-empty' }, emptyNote('Nothing to compare per request.')), notes);
  } else {
    section.append(notes, metricsTable(load.rows, 'compare-load', 'Per-request figures of A and B under load'));
  }
  parent.append(section);
}
