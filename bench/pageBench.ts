/// <reference lib="dom" />
/**
 * The report page in headless Chromium (Debian's), the same page the webview shows, exported with
 * `report --html`, for two profiles: a real `tsc` profile (this repository's type check) and a
 * 47 MB generated one. For each, interleaved in roundOrder order:
 *  - first paint of the flame graph, against a bare page that embeds the same data in the same
 *    places (the packed model, then its script, then the samples in time order) and only parses
 *    the model (both mark the first task after the frame that painted);
 *  - a zoom click and a search (after its debounce), each until the updated frame is painted;
 * and for the tsc profile the exported HTML's size and `report --html` in process against
 * `JSON.parse`; `report --json` and `--html` of both profiles as whole processes against a process
 * that only parses the same file, time and peak memory. `performance` is the global one (not imported): the same name runs inside the page's
 * evaluate callbacks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildReportModel } from '../src/core/report/reportModel';
import { readReportAssets, standaloneReportHtml } from '../src/core/report/reportPage';
import { median } from '../src/core/util/stats';
import { generateCpuProfile } from './generateCpuProfile';
import { fmtSpread, report, roundOrder } from './measure';
import { wholeProcess, type ProcessFigures } from './wholeProcess';
import { tempDir } from '../scripts/tempDirs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/**
 * A real profile of `tsc` (this repository's own type check, TypeScript from its devDependencies),
 * sampled every 250 µs: tens of thousands of nodes, few of them wide enough to draw.
 */
function profileTsc(dir: string): string {
  const out = join(dir, 'tsc');
  const repo = join(__dirname, '..');
  // tsc exits 2 on a type error (a checkout mid-edit): the profile of the whole check is written all the same.
  spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${out}`, '--cpu-prof-interval=250', join(repo, 'node_modules', 'typescript', 'lib', 'tsc.js'), '--noEmit', '-p', repo], { stdio: 'ignore' });
  const file = existsSync(out) ? readdirSync(out).find((f) => f.endsWith('.cpuprofile')) : undefined;
  if (!file) throw new Error('profiling tsc wrote no .cpuprofile');
  return join(out, file);
}

/** The 47 MB generated profile the --json bench reads too (same seed, same text). */
export function writeBigProfile(dir: string): string {
  const path = join(dir, 'big.cpuprofile');
  writeFileSync(path, generateCpuProfile(47 * 2 ** 20, 11));
  return path;
}

/** The report page and the bare page for a profile, written to `dir`. */
async function writePages(dir: string, name: string, profilePath: string): Promise<{ page: string; bare: string; html: string }> {
  const assets = await readReportAssets(join(__dirname, '..', 'dist', 'webview'));
  const model = await buildReportModel(profilePath, { forPage: true });
  const html = standaloneReportHtml(model, assets);
  const page = join(dir, `${name}.html`);
  writeFileSync(page, html);
  const bare = join(dir, `${name}-bare.html`);
  // The same data in the same places as the exported page: its model, then the script, then the
  // samples in time order (which neither page parses before its first paint).
  const modelElement = /<script type="application\/json" id="report-model">[^]*?<\/script>/.exec(html)![0];
  const spanElements = html.match(/<script type="application\/octet-stream" id="report-spans-\d+">[^<]*<\/script>/g) ?? [];
  writeFileSync(
    bare,
    `<!doctype html><html><head><meta charset="utf-8"></head><body>${modelElement}` +
      `<script>const m = JSON.parse(document.getElementById('report-model').textContent); document.body.append(String(Object.keys(m).length));` +
      // The same mark as the report's: the first task after the frame that painted.
      `requestAnimationFrame(() => setTimeout(() => document.documentElement.setAttribute('data-first-paint-at', String(Math.round(performance.now()))), 0));</script>${spanElements.join('')}</body></html>`,
  );
  return { page, bare, html };
}

async function paintAt(page: Page, path: string): Promise<number> {
  await page.goto(`file://${path}`);
  await page.waitForSelector('html[data-first-paint-at]', { timeout: 60_000 });
  return Number(await page.getAttribute('html', 'data-first-paint-at'));
}

/** A click on a wide frame a few rows down, until the first task after the frame that shows the zoom. */
function zoomClick(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const box = document.getElementById('flame-graph') as HTMLElement & { flameFrames(): { depth: number; x: number; y: number; width: number }[] };
    const frames = box.flameFrames().filter((f) => f.width > 40 && f.depth > 0);
    const target = frames.find((f) => f.depth === 3) ?? frames[frames.length - 1]!;
    const canvas = box.querySelector('canvas')!;
    const r = canvas.getBoundingClientRect();
    const start = performance.now();
    canvas.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: r.left + target.x + 5, clientY: r.top + target.y + 5 }));
    await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    return performance.now() - start;
  });
}

/** A search typed into the box: from the search's start (after the debounce) to the first task after the frame that shows it. */
function searchFor(page: Page, term: string): Promise<number> {
  return page.evaluate(async (text) => {
    performance.clearMeasures('v8-lens:search');
    const field = document.getElementById('flame-search') as HTMLElement & { value: string };
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true }));
    while (performance.getEntriesByName('v8-lens:search').length === 0) await new Promise((done) => setTimeout(done, 2));
    const measure = performance.getEntriesByName('v8-lens:search')[0]!;
    await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    return performance.now() - measure.startTime;
  }, term);
}

export async function benchReportPage(rounds: number): Promise<void> {
  const dir = tempDir('v8-lens-page-');
  const tscPath = profileTsc(dir);
  const text = readFileSync(tscPath, 'utf8');
  const parsed = JSON.parse(text) as { nodes: unknown[]; samples: unknown[] };
  const tscWhat = `a real \`tsc\` profile (${(text.length / 2 ** 20).toFixed(1)} MB, ${parsed.nodes.length.toLocaleString('en-US')} nodes)`;
  console.log(`report page: ${tscWhat}`);

  // report --html in process, against JSON.parse of the same text, in roundOrder order.
  const assets = await readReportAssets(join(__dirname, '..', 'dist', 'webview'));
  let html = '';
  const parse: number[] = [];
  const reportMs: number[] = [];
  let before = loadavg()[0]!;
  for (let i = 0; i < rounds; i++) {
    for (const arm of roundOrder(['parse', 'report'] as const, i)) {
      const t = performance.now();
      if (arm === 'parse') {
        JSON.parse(text);
        parse.push(performance.now() - t);
      } else {
        html = standaloneReportHtml(await buildReportModel(tscPath, { forPage: true }), assets);
        reportMs.push(performance.now() - t);
      }
    }
  }
  const htmlRatios = reportMs.map((v, i) => v / parse[i]!);
  report({ what: `\`report --html\` in process (model, page) of ${tscWhat}`, baseline: `\`JSON.parse\` ${fmtSpread(parse)}`, result: `${fmtSpread(reportMs)} = ${fmtSpread(htmlRatios, '×', 2)}`, target: '≤ 2 ×', met: median(htmlRatios) <= 2, load: [before, loadavg()[0]!] });
  const share = html.length / text.length;
  report({ what: 'the exported HTML (`report --html`) of that profile', baseline: `the profile: ${(text.length / 2 ** 20).toFixed(1)} MB`, result: `**${(html.length / 2 ** 20).toFixed(2)} MB = ${(share * 100).toFixed(1)} %**`, target: '≤ 25 %', met: share <= 0.25, load: [0, 0], untimed: true });

  if (!existsSync(CHROMIUM)) {
    console.log(`  (no Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM; the page figures are skipped)`);
    return;
  }
  const bigPath = writeBigProfile(dir);
  const profiles = [
    { name: 'tsc', what: tscWhat, path: tscPath },
    { name: 'big', what: 'a 47 MB generated profile', path: bigPath },
  ];
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    for (const profile of profiles) {
      const files = await writePages(dir, profile.name, profile.path);
      const bare: number[] = [];
      const full: number[] = [];
      const zoom: number[] = [];
      const search: number[] = [];
      const chart: number[] = [];
      await paintAt(page, files.page); // warm-up
      before = loadavg()[0]!;
      for (let i = 0; i < rounds; i++) {
        for (const arm of roundOrder(['bare', 'page'] as const, i)) {
          if (arm === 'bare') {
            bare.push(await paintAt(page, files.bare));
            continue;
          }
          full.push(await paintAt(page, files.page));
          await page.waitForSelector('html[data-report-ready]', { timeout: 60_000 });
          chart.push(await page.evaluate(() => ['v8-lens:flame-chart', 'v8-lens:flame-chart-draw'].reduce((sum, name) => sum + (performance.getEntriesByName(name)[0]?.duration ?? 0), 0)));
          zoom.push(await zoomClick(page));
          search.push(await searchFor(page, 'parse'));
        }
      }
      const load: [number, number] = [before, loadavg()[0]!];
      const ratios = full.map((v, i) => v / bare[i]!);
      console.log(`  ${profile.name}: bare page ${fmtSpread(bare)}, report page ${fmtSpread(full)}, zoom ${fmtSpread(zoom)}, search ${fmtSpread(search)}`);
      report({ what: `the report page of ${profile.what} in headless Chromium: first paint of the flame graph`, baseline: `a bare page that only parses the same model: ${fmtSpread(bare)}`, result: `**${fmtSpread(full)}** = ${fmtSpread(ratios, '×', 2)}`, target: '≤ 250 ms and ≤ 2 ×', met: median(full) <= 250 && median(ratios) <= 2, load });
      report({ what: `the same page: a zoom click / a search (after its debounce), to the frame that shows it`, baseline: '', result: `**${fmtSpread(zoom)}** / **${fmtSpread(search)}**`, target: '≤ 50 ms', met: median(zoom) <= 50 && median(search) <= 50, load });
      if (profile.name === 'tsc') report({ what: 'the same page: the CPU-over-time strip, its boxes and first draw (after the flame graph)', baseline: '', result: `**${fmtSpread(chart)}**`, target: '≤ 500 ms', met: median(chart) <= 500, load });
    }
  } finally {
    await browser.close();
  }
}

/**
 * `report --json` and `report --html` of the tsc profile and the 47 MB one as whole processes,
 * against a process that only reads and parses the same file: time and peak memory
 * (bench/wholeProcess.ts), interleaved in roundOrder order.
 */
export function benchReportJsonProcess(rounds: number): void {
  const dir = tempDir('v8-lens-json-');
  const profiles = [
    { what: 'a 47 MB generated profile', path: writeBigProfile(dir) },
    { what: 'the `tsc` profile', path: profileTsc(dir) },
  ];
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  const html = join(dir, 'report.html');
  for (const profile of profiles) {
    const arms = {
      bare: () => wholeProcess(['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(profile.path)}, 'utf8'))`]),
      json: () => wholeProcess([cli, 'report', profile.path, '--json']),
      html: () => wholeProcess([cli, 'report', profile.path, '--html', html]),
    };
    const names = Object.keys(arms) as Array<keyof typeof arms>;
    const got: Record<string, ProcessFigures[]> = { bare: [], json: [], html: [] };
    const before = loadavg()[0]!;
    for (let i = 0; i < rounds; i++) for (const name of roundOrder(names, i)) got[name]!.push(arms[name]());
    const load: [number, number] = [before, loadavg()[0]!];
    const bare = got.bare!;
    const size = `${(statSync(profile.path).size / 2 ** 20).toFixed(1)} MB`;
    const mb = (values: ProcessFigures[]) => fmtSpread(values.map((v) => v.peakBytes / 2 ** 20), 'MB');
    for (const [name, time, memory] of [['json', 1.3, 1.2], ['html', 1.8, 1.6]] as const) {
      const ours = got[name]!;
      const times = ours.map((v, i) => v.ms / bare[i]!.ms);
      const peaks = ours.map((v, i) => v.peakBytes / bare[i]!.peakBytes);
      report({
        what: `\`report --${name}\` of ${profile.what} (${size}), whole processes: time / peak memory`,
        baseline: `\`node\` reading and parsing it: ${fmtSpread(bare.map((v) => v.ms))} / ${mb(bare)}`,
        result: `${fmtSpread(ours.map((v) => v.ms))} = **${fmtSpread(times, '×', 2)}** / ${mb(ours)} = **${fmtSpread(peaks, '×', 2)}**`,
        target: `≤ ${time} × / ≤ ${memory} ×`,
        met: median(times) <= time && median(peaks) <= memory,
        load,
      });
    }
  }
}
