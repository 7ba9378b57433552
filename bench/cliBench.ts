/**
 * What a CLI run costs beyond the program: `v8-lens profile` of a script that does nothing (the
 * default preset: CPU profile, GC trace, deopts) against `node --cpu-prof` of the same script, each
 * a whole process, interleaved in a balanced order. V8 Lens pays a second Node start-up, the probe of
 * the target's Node, the preload agent and the analysis; it must not wait for anything after the
 * program ends (test/integration/cliExitTail.test.ts checks that structurally).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from '../src/core/util/stats';
import { fmtSpread, interleave, report } from './measure';
import { tempDir } from '../scripts/tempDirs';

export async function benchCliTail(rounds: number): Promise<void> {
  const dir = tempDir('v8-lens-cli-');
  const script = join(dir, 'noop.js');
  writeFileSync(script, '// does nothing and ends\n');
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  let n = 0;
  const wall = (args: string[]) => {
    const start = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = performance.now() - start;
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
    return ms;
  };
  console.log(`CLI: a no-op script, ${rounds} balanced rounds of whole processes`);
  const before = loadavg()[0]!;
  const t = await interleave(
    [
      { name: 'node', run: () => wall(['--cpu-prof', `--cpu-prof-dir=${join(dir, `node-${n++}`)}`, script]) },
      { name: 'v8-lens', run: () => wall([cli, 'profile', '--out', join(dir, `run-${n++}`), '--', script]) },
    ],
    rounds,
  );
  const ratios = t['v8-lens']!.map((v, i) => v / t.node![i]!);
  console.log(`  node --cpu-prof      ${fmtSpread(t.node!)}`);
  console.log(`  v8-lens profile      ${fmtSpread(t['v8-lens']!)}`);
  report({
    what: '`v8-lens profile` of a no-op script (default preset), whole process',
    baseline: `\`node --cpu-prof\` of it: ${fmtSpread(t.node!)}`,
    result: `${fmtSpread(t['v8-lens']!)} = **${fmtSpread(ratios, '×', 2)}**`,
    target: '≤ 3 ×',
    met: median(ratios) <= 3,
    load: [before, loadavg()[0]!],
  });
}
