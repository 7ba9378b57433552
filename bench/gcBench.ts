/**
 * The GC-trace reader on 2 million recorded lines (Node 20/22/24's, repeated):
 *  - parse: the --trace-gc scanner over each line's bytes in place, as a saved log is read, into a
 *    table's next row (never added), against finding the lines' ends (what any reader does);
 *  - collect: the collector's whole work per line (classify, scan, keep the event as columns, the
 *    running counts), the same way;
 *  - end to end: `v8-lens report <log> --json` as a whole process against a process that reads the
 *    file and splits it into lines, time and peak memory (bench/wholeProcess.ts), the memory held to
 *    the file's size.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GcTraceCollector } from '../src/core/gc/gcTraceCollector';
import { GcEventTable } from '../src/core/gc/gcEventTable';
import { scanTraceGcLine } from '../src/core/gc/traceGcLine';
import { median } from '../src/core/util/stats';
import { fmtSpread, report, roundOrder } from './measure';
import { wholeProcess, type ProcessFigures } from './wholeProcess';
import { tempDir } from '../scripts/tempDirs';

const LINES = 2_000_000;

/** The lines as one log's bytes; the array of lines is garbage once made (held, its 2 million entries would be marked by every full GC of the arms). */
function recordedLog(): Buffer {
  const dir = join(__dirname, '..', 'test', 'fixtures', 'gc');
  const sample = ['node20.txt', 'node22.txt', 'node24.txt']
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => /^\[\d+:0x/.test(l) && / ms: /.test(l));
  const lines: string[] = [];
  while (lines.length < LINES) lines.push(...sample);
  lines.length = LINES;
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Calls `line(start, end)` for each line of `bytes` (each ends with "\n"). */
function eachLine(bytes: Buffer, line: (start: number, end: number) => void): void {
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    line(start, end);
    start = end + 1;
  }
}

export async function benchGcTrace(rounds: number): Promise<void> {
  const bytes = recordedLog();
  console.log(`GC trace: ${LINES.toLocaleString('en-US')} lines (recorded Node 20/22/24 lines, repeated), ${(bytes.length / 2 ** 20).toFixed(0)} MB`);
  // The scanner alone writes each line into the same row of a table, never added.
  const row = new GcEventTable(16);
  let sink = 0;
  const arms = {
    split: () => eachLine(bytes, (start, end) => (sink += end - start)),
    parse: () => eachLine(bytes, (start, end) => (sink += scanTraceGcLine(bytes, start, end, row) ? 1 : 0)),
    collect: () => {
      const collector = new GcTraceCollector();
      eachLine(bytes, (start, end) => collector.addBytes(bytes, start, end));
      sink += collector.table.length;
    },
  };
  const names = Object.keys(arms) as Array<keyof typeof arms>;
  const ms: Record<string, number[]> = { split: [], parse: [], collect: [] };
  for (const name of names) arms[name](); // warm-up
  const before = loadavg()[0]!;
  for (let i = 0; i < rounds; i++) {
    for (const name of roundOrder(names, i)) {
      const t = performance.now();
      arms[name]();
      ms[name]!.push(performance.now() - t);
    }
  }
  const load: [number, number] = [before, loadavg()[0]!];
  const rates = (values: number[]) => values.map((v) => LINES / (v / 1000) / 1e6);
  report({ what: `${LINES / 1e6} million recorded GC lines, parsed (the \`--trace-gc\` scanner, each line's bytes in place)`, baseline: `finding the lines' ends ${fmtSpread(ms.split!)}`, result: `**${fmtSpread(rates(ms.parse!), 'M lines/s', 2)}**`, target: '≥ 2 M lines/s', met: median(rates(ms.parse!)) >= 2, load });
  report({ what: 'the same lines classified, parsed and every event kept as columns (`GcTraceCollector`)', baseline: '', result: `**${fmtSpread(rates(ms.collect!), 'M lines/s', 2)}**`, target: '≥ 2 M lines/s', met: median(rates(ms.collect!)) >= 2, load });
  if (sink === -1) console.log(sink);
  benchReportGcLog(bytes, Math.max(3, Math.min(rounds, 5)));
}

/** `report <log> --json` of the same lines as a whole process, against reading and splitting the file. */
function benchReportGcLog(bytes: Buffer, rounds: number): void {
  const dir = tempDir('v8-lens-gc-');
  const log = join(dir, 'gc.log');
  writeFileSync(log, bytes);
  const size = statSync(log).size;
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  const arms = {
    split: () => wholeProcess(['-e', `require('fs').readFileSync(${JSON.stringify(log)}, 'utf8').split('\\n').length`]),
    report: () => wholeProcess([cli, 'report', log, '--json']),
  };
  const names = Object.keys(arms) as Array<keyof typeof arms>;
  const got: Record<string, ProcessFigures[]> = { split: [], report: [] };
  const before = loadavg()[0]!;
  for (let i = 0; i < rounds; i++) for (const name of roundOrder(names, i)) got[name]!.push(arms[name]());
  const load: [number, number] = [before, loadavg()[0]!];
  rmSync(dir, { recursive: true, force: true });
  const split = got.split!.map((r) => r.ms);
  const ours = got.report!.map((r) => r.ms);
  const ratios = ours.map((v, i) => v / split[i]!);
  const mb = (values: number[]) => fmtSpread(values.map((v) => v / 2 ** 20), 'MB');
  const memory = got.report!.map((r) => r.peakBytes / size);
  report({ what: `\`report <gc log> --json\` of those ${LINES / 1e6} million lines (${(size / 2 ** 20).toFixed(0)} MB), whole processes`, baseline: `\`node\` reading the file and splitting it into lines: ${fmtSpread(split)}`, result: `${fmtSpread(ours)} = **${fmtSpread(ratios, '×', 2)}**`, target: '≤ 1.5 ×', met: median(ratios) <= 1.5, load });
  report({ what: 'the same: peak resident memory, against the file', baseline: `reading and splitting: ${mb(got.split!.map((r) => r.peakBytes))}`, result: `${mb(got.report!.map((r) => r.peakBytes))} = **${fmtSpread(memory, '×', 2)}** the file`, target: '≤ 2 × the file', met: median(memory) <= 2, load });
}
