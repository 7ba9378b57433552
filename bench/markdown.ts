/**
 * `npm run bench -- --markdown`: the run's figures as the README's table, with the date, the
 * machine, Node, Chromium and the load, written between the README's bench markers. Only a whole
 * run (no BENCH_ONLY) whose every figure was measured under the load threshold is written; else
 * the table is printed and the README left as it is (exit code 1).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { figures, machineLine, MAX_OTHER_CORES, tooBusy, type Figure } from './measure';

const README = join(__dirname, '..', 'README.md');
const START = '<!-- bench:table:start (npm run bench -- --markdown writes this part) -->';
const END = '<!-- bench:table:end -->';

function chromiumVersion(): string {
  const r = spawnSync(process.env.CHROMIUM ?? '/usr/bin/chromium', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : 'no Chromium';
}

function verdict(f: Figure): string {
  if (f.met === null) return '';
  if (tooBusy(f)) return ' (machine too busy: no verdict)';
  if (f.unsettled) return ` (unsettled: ${f.unsettled})`;
  return f.met ? ' (met)' : ' (missed)';
}

function loadCell(f: Figure): string {
  const load = f.load[0] === 0 && f.load[1] === 0 ? '' : `${f.load[0].toFixed(2)}–${f.load[1].toFixed(2)}`;
  const other = f.otherCores === null || f.otherCores === undefined ? '' : `${f.otherCores.toFixed(2)} cores`;
  return [load, other].filter(Boolean).join(' · ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function writeMarkdown(run: { startLoad: string; endLoad: string; rounds: number; only: string[] | null }): number {
  const loaded = figures.filter((f) => tooBusy(f) !== null);
  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    START,
    `Measured ${date} by \`npm run bench -- --markdown\` on ${machineLine()}, Linux, Node ${process.version}, ${chromiumVersion()}; load average (1/5/15 min) ${run.startLoad} at the start, ${run.endLoad} at the end. Each figure against its baseline in the same rounds (${run.rounds} or as stated), in an order that changes each round so that every arm runs in every position and after every other equally often; medians with [min–max] of the rounds. The load column: the 1-minute load average before and after (the bench's own processes count in it: on 2 cores it is 1-2 by itself) and the CPU other processes used meanwhile, which must stay under ${MAX_OTHER_CORES} of a core for a verdict.`,
    '',
    '| what | baseline | V8 Lens | target | load · other work |',
    '| --- | --- | --- | --- | --- |',
    ...figures.map((f) => `| ${cell(f.what)} | ${cell(f.baseline)} | ${cell(f.result)} | ${cell(f.target)}${verdict(f)} | ${loadCell(f)} |`),
    END,
  ];
  const table = lines.join('\n');
  console.log(`\n${table}\n`);
  if (run.only) {
    console.log('README not written: only a whole run (no BENCH_ONLY) makes its table.');
    return 1;
  }
  if (loaded.length > 0) {
    console.log(`README not written: ${loaded.length} figure(s) measured on a busy machine (${loaded.map((f) => `${f.what}: ${tooBusy(f)}`).join('; ')}). Rerun on a quiet machine.`);
    return 1;
  }
  const readme = readFileSync(README, 'utf8');
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) {
    console.log(`README not written: it has no ${START} … ${END} markers.`);
    return 1;
  }
  writeFileSync(README, readme.slice(0, from) + table + readme.slice(to + END.length));
  console.log('README.md: the benchmark table was rewritten.');
  return 0;
}
