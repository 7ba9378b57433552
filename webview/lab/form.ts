/**
 * The lab's form: target, readiness, load, the flag and its values, rounds; Run and Cancel. Every
 * change goes to the host at once (`formChanged`), which keeps the form for the next time.
 */
import { SWEEP_FLAGS, sweepFlagInfo } from '../../src/shared/sweepFlags';
import { SEMI_SPACE_FLAG } from '../../src/shared/model/sweep';
import type { LabForm, LabTarget } from '../../src/shared/labProtocol';
import { el } from '../common/dom';
import { formatDuration } from './labFormat';
import type { LabPage } from './page';
import type { ProgressView } from './progress';

export interface FormView {
  /** Draws the form for these targets from `page.form`; off in an untrusted workspace. */
  render(targets: LabTarget[], trusted: boolean): void;
  /** Run and Cancel (and <html data-running>) as `page.running` says. */
  syncButtons(): void;
}

const OTHER_FLAG = '__other__';

function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
  return el('label', { className: 'field' }, el('span', { className: 'field-label', text: label }), input, hint ? el('span', { className: 'hint', text: hint }) : null);
}

export function formView(section: HTMLElement, page: LabPage, progress: ProgressView): FormView {
  const flagField = el('div', { id: 'lab-flag-fields' });
  const estimate = el('p', { className: 'hint', id: 'lab-estimate' });
  const runButton = el('button', { id: 'lab-run', className: 'primary', text: 'Run sweep' });
  const cancelButton = el('button', { id: 'lab-cancel', text: 'Cancel' });
  const rateField = el('div');

  function input(key: keyof LabForm, type: 'text' | 'number' | 'textarea' = 'text', attrs: Record<string, string | number> = {}): HTMLInputElement | HTMLTextAreaElement {
    const node = type === 'textarea' ? el('textarea', { attrs: { id: `lab-${key}`, rows: 2, ...attrs } }) : el('input', { attrs: { type, id: `lab-${key}`, ...attrs } });
    node.value = String(page.form![key]);
    node.addEventListener('change', () => {
      (page.form as unknown as Record<string, unknown>)[key] = type === 'number' ? Number(node.value) : node.value;
      page.post({ type: 'formChanged', form: page.form! });
      updateEstimate();
    });
    return node;
  }

  function select<K extends keyof LabForm>(key: K, options: Array<[string, string]>): HTMLSelectElement {
    const node = el('select', { attrs: { id: `lab-${String(key)}` } });
    for (const [value, label] of options) node.append(el('option', { text: label, attrs: { value } }));
    node.value = String(page.form![key]);
    node.addEventListener('change', () => {
      (page.form as unknown as Record<string, unknown>)[key] = key === 'pinMin' ? node.value === 'true' : node.value;
      page.post({ type: 'formChanged', form: page.form! });
      renderModeFields();
    });
    return node;
  }

  /**
   * The flag: a select of the common ones and "other…" with a text box (checked against the
   * target's Node when the sweep starts), then its values with the flag's unit, and the pin of the
   * minimum semi-space for the semi-space alone. Picking another flag swaps in its suggested values
   * unless the user had typed their own.
   */
  function renderFlagFields(): void {
    if (!page.form) return;
    const current = page.form.flag;
    const known = SWEEP_FLAGS.some((f) => f.name === current);
    const pick = el('select', { attrs: { id: 'lab-flag' } });
    for (const f of SWEEP_FLAGS) pick.append(el('option', { text: `--${f.name}`, attrs: { value: f.name } }));
    pick.append(el('option', { text: 'other…', attrs: { value: OTHER_FLAG } }));
    pick.value = known ? current : OTHER_FLAG;
    pick.addEventListener('change', () => {
      const before = page.form!.flag;
      const next = pick.value === OTHER_FLAG ? '' : pick.value;
      const suggestedBefore = sweepFlagInfo(before).suggested;
      if (page.form!.values.trim() === '' || page.form!.values === suggestedBefore) page.form!.values = sweepFlagInfo(next).suggested;
      page.form!.flag = next;
      page.post({ type: 'formChanged', form: page.form! });
      renderFlagFields();
      updateEstimate();
      if (next === '') document.getElementById('lab-flag-other')?.focus();
    });
    const info = sweepFlagInfo(current || 'x');
    const parts: HTMLElement[] = [field('Flag', pick, known ? info.hint : 'Any V8 or Node flag that takes a number; checked against the target’s Node before the sweep starts.')];
    if (!known) {
      const other = el('input', { attrs: { type: 'text', id: 'lab-flag-other', placeholder: 'e.g. max-heap-size', spellcheck: 'false' } });
      other.value = current;
      other.addEventListener('change', () => {
        page.form!.flag = other.value.trim().replace(/^-+/, '');
        page.post({ type: 'formChanged', form: page.form! });
        renderFlagFields();
      });
      parts.push(field('Other flag (without --)', other));
    }
    const unit = current ? sweepFlagInfo(current).unit : '';
    parts.push(field(`Values${unit ? ` (${unit})` : ''}`, input('values', 'text', { placeholder: info.suggested || 'e.g. 1, 2, 4' }), 'The first value is the baseline the others are compared with.'));
    if (current === SEMI_SPACE_FLAG) {
      parts.push(field('New space', select('pinMin', [['false', 'starts small and grows (V8 default)'], ['true', 'pinned: --min-semi-space-size = max']])));
    }
    flagField.replaceChildren(...parts);
  }

  function renderForm(targets: LabTarget[], trusted: boolean): void {
    section.replaceChildren();
    const target = el('select', { attrs: { id: 'lab-target' } });
    for (const t of targets) target.append(el('option', { text: t.label, title: t.detail, attrs: { value: t.id } }));
    if (targets.length === 0) target.append(el('option', { text: 'No node launch configuration, node npm script or open .js file', attrs: { value: '' } }));
    target.value = page.form!.targetId;
    target.addEventListener('change', () => {
      page.form!.targetId = target.value;
      page.post({ type: 'formChanged', form: page.form! });
    });
    runButton.onclick = () => {
      if (!page.form) return;
      progress.set('Checking the settings…');
      page.post({ type: 'run', form: page.form });
    };
    cancelButton.onclick = () => page.post({ type: 'cancel' });
    section.append(
      el('h2', { text: 'Semi-space Lab' }),
      el('p', { className: 'hint', text: 'Runs your service under the same load at each value of a V8 flag (--max-semi-space-size unless you pick another), a fresh process per run, and compares throughput, latency, failed requests, GC and memory.' }),
      field('Target', target),
      field('Ready when', select('readyKind', [['url', 'a URL answers'], ['line', 'it prints a line']])),
      field('URL or line', input('readyValue', 'text', { placeholder: 'the request URL' })),
      el('h3', { text: 'Load' }),
      field('Request URL (loopback only)', input('url')),
      field('Method', input('method')),
      field('Headers (Name: value per line)', input('headers', 'textarea')),
      field('Body', input('body', 'textarea')),
      field('Connections', input('connections', 'number', { min: 1 })),
      field('Warm-up s (discarded)', input('warmupSeconds', 'number', { min: 0 })),
      field('Measured s', input('durationSeconds', 'number', { min: 1 })),
      field('Mode', select('mode', [['closed', 'closed loop (as fast as it answers)'], ['rate', 'fixed rate']])),
      rateField,
      el('h3', { text: 'Flag and values' }),
      flagField,
      field('Rounds', input('rounds', 'number', { min: 1 }), '3 rounds show big differences; 4+ are needed to call one significant, 6 for a confidence interval.'),
      field('If a run fails', select('onFailure', [['continue', 'go on with the next run'], ['stop', 'stop the sweep']])),
      el('div', { className: 'buttons' }, runButton, cancelButton),
      estimate,
    );
    if (!trusted) section.append(el('p', { className: 'warning', text: 'This workspace is not trusted: the lab runs your code, so it is off here.' }));
    renderModeFields();
    renderFlagFields();
    updateEstimate();
    runButton.disabled = !trusted;
  }

  function renderModeFields(): void {
    rateField.replaceChildren();
    if (page.form?.mode === 'rate') rateField.append(field('Rate (req/s, all connections)', input('rate', 'number', { min: 1 }), 'A fixed rate at 50–70% of the maximum gives the fairest latency and GC comparison.'));
  }

  function updateEstimate(): void {
    if (!page.form) return;
    const form = page.form;
    const values = form.values.split(/[\s,;]+/).filter(Boolean).length;
    // One profiling run per value follows the measured rounds (its profilers would change them).
    const runs = values * form.rounds + values;
    const seconds = runs * (form.warmupSeconds + form.durationSeconds + 3);
    estimate.textContent = `${values * form.rounds} measured runs + ${values} profiling, about ${formatDuration(seconds)}.`;
  }

  function syncButtons(): void {
    runButton.disabled = page.running;
    cancelButton.disabled = !page.running;
    document.documentElement.toggleAttribute('data-running', page.running);
  }

  return { render: renderForm, syncButtons };
}
