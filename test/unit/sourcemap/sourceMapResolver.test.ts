import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { SourceMapResolver } from '../../../src/core/sourcemap/sourceMapResolver';
import { fileUrlToPath, findSourceMappingUrl, percentDecode, readDataUrl } from '../../../src/core/sourcemap/sourceMapUrl';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'sourcemap');
const TS_APP = join(FIXTURES, 'ts-app');
const APP_TS = join(TS_APP, 'src', 'app.ts');
const APP_JS = join(TS_APP, 'dist', 'app.js');
const APP_JS_INLINE = join(TS_APP, 'dist-inline', 'app.js');
const BUNDLE_JS = join(FIXTURES, 'bundle', 'dist', 'bundle.js');
/** The marker comment on the hot loop line (the header comment names the marker too, without the `;`). */
const HOT_LOOP = '; // HOT-LOOP';

/** 1-based line of the first line of `file` containing `needle`, and the 1-based column where it starts. */
function find(file: string, needle: string): { line: number; column: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const index = lines.findIndex((l) => l.includes(needle));
  assert.ok(index >= 0, `${needle} not found in ${file}`);
  return { line: index + 1, column: lines[index]!.indexOf(needle) + 1 };
}

// --- tiny source map writer for in-memory maps ------------------------------------------------

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function vlq(n: number): string {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += B64[digit];
  } while (v > 0);
  return out;
}

/** `mappings` from absolute 0-based segments per generated line: [genCol] or [genCol, source, line, col, name?]. */
function mappings(lines: number[][][]): string {
  let source = 0;
  let line = 0;
  let column = 0;
  let name = 0;
  return lines
    .map((segments) => {
      let generated = 0;
      return segments
        .map((s) => {
          const out = [s[0]! - generated];
          generated = s[0]!;
          if (s.length >= 4) {
            out.push(s[1]! - source, s[2]! - line, s[3]! - column);
            [source, line, column] = [s[1]!, s[2]!, s[3]!];
            if (s.length === 5) {
              out.push(s[4]! - name);
              name = s[4]!;
            }
          }
          return out.map(vlq).join('');
        })
        .join(',');
    })
    .join(';');
}

function mapJson(fields: { sources: (string | null)[]; sourceRoot?: string; names?: string[]; lines: number[][][] }): string {
  return JSON.stringify({ version: 3, sourceRoot: fields.sourceRoot, sources: fields.sources, names: fields.names ?? [], mappings: mappings(fields.lines) });
}

/** An in-memory file system that records every read. */
function memoryFs(files: Record<string, string>) {
  const reads: string[] = [];
  return {
    reads,
    count: (path: string) => reads.filter((r) => r === path).length,
    readFile: async (path: string): Promise<string | null> => {
      reads.push(path);
      await new Promise((r) => setImmediate(r)); // really asynchronous, so concurrent loads overlap
      return files[path] ?? null;
    },
  };
}

/** A three-line generated file whose lines 1-2 map to /proj/src/a.ts lines 5 and 9. */
const SIMPLE_LINES = [[[0, 0, 4, 0], [6, 0, 4, 6, 0]], [[2, 0, 8, 2]], []];
const GENERATED_CODE = 'const x = 1;\n  f(x);\n';

describe('SourceMapResolver on the compiled TypeScript fixture', () => {
  it('maps the `function area(` line of dist/app.js (external map) to its line in app.ts', async () => {
    const resolver = new SourceMapResolver();
    const js = find(APP_JS, 'function area(');
    const ts = find(APP_TS, 'function area(');
    assert.ok(ts.line - js.line >= 10, 'the fixture keeps .ts and .js lines well apart');
    assert.deepEqual(await resolver.original(APP_JS, js.line, js.column), { path: APP_TS, line: ts.line, column: ts.column, name: null });
    // The function's name, where V8 puts a function's position (just after it, at the parenthesis).
    const jsParen = find(APP_JS, 'function spin(');
    const tsParen = find(APP_TS, 'function spin(');
    const pos = await resolver.original(APP_JS, jsParen.line, jsParen.column + 'function spin'.length);
    assert.deepEqual(pos, { path: APP_TS, line: tsParen.line, column: tsParen.column + 'function spin'.length, name: null });
    assert.equal(resolver.problem(APP_JS), null);
  });

  it('maps the deopt sites: the expression positions inside `area` and `addPrice`', async () => {
    const resolver = new SourceMapResolver();
    for (const [marker, expr] of [['; // DEOPT-WRONG-MAP', 's.w'], ['; // DEOPT-NOT-NUMBER', 'a + b']] as const) {
      const js = find(APP_JS, marker);
      const ts = find(APP_TS, marker);
      const jsColumn = readFileSync(APP_JS, 'utf8').split('\n')[js.line - 1]!.indexOf(expr) + 1;
      const tsColumn = readFileSync(APP_TS, 'utf8').split('\n')[ts.line - 1]!.indexOf(expr) + 1;
      assert.deepEqual(await resolver.original(APP_JS, js.line, jsColumn), { path: APP_TS, line: ts.line, column: tsColumn, name: null });
    }
  });

  it('gives the same positions through the inline map of dist-inline/app.js', async () => {
    assert.match(readFileSync(APP_JS_INLINE, 'utf8'), /\/\/# sourceMappingURL=data:application\/json;base64,/);
    const resolver = new SourceMapResolver();
    for (const needle of ['function area(', 'function addPrice(', HOT_LOOP]) {
      const js = find(APP_JS_INLINE, needle);
      const ts = find(APP_TS, needle);
      const pos = await resolver.original(APP_JS_INLINE, js.line, js.column);
      assert.equal(pos?.path, APP_TS);
      assert.equal(pos?.line, ts.line, needle);
      assert.deepEqual(pos, await new SourceMapResolver().original(APP_JS, js.line, js.column));
    }
  });

  it('maps a whole line (line-only) to the original line, column 0', async () => {
    const resolver = new SourceMapResolver();
    const js = find(APP_JS, HOT_LOOP);
    const ts = find(APP_TS, HOT_LOOP);
    assert.deepEqual(await resolver.originalLine(APP_JS, js.line), { path: APP_TS, line: ts.line, column: 0, name: null });
    assert.deepEqual(await resolver.originalLine(APP_JS_INLINE, js.line), { path: APP_TS, line: ts.line, column: 0, name: null });
  });

  it('gives null for generated lines without a mapping, and keeps problem() null', async () => {
    const resolver = new SourceMapResolver();
    // `"use strict";` and the `__esModule` line are tsc's own, with no original position.
    assert.equal(await resolver.original(APP_JS, 1, 1), null);
    assert.equal(await resolver.originalLine(APP_JS, 2), null);
    assert.equal(resolver.problem(APP_JS), null);
  });

  it('gives null and says why for a line past the end of the generated file', async () => {
    const resolver = new SourceMapResolver();
    const lines = readFileSync(APP_JS, 'utf8').split('\n').length;
    assert.equal(await resolver.original(APP_JS, lines + 100, 1), null);
    assert.equal(resolver.problem(APP_JS), `line ${lines + 100} is past the end of app.js (${lines} lines)`);
    // The next good lookup clears it: problem() is about the last lookup.
    assert.notEqual(await resolver.originalLine(APP_JS, find(APP_JS, HOT_LOOP).line), null);
    assert.equal(resolver.problem(APP_JS), null);
  });

  it('resolves a bundle with two sources through its sourceRoot', async () => {
    const resolver = new SourceMapResolver();
    const src = join(FIXTURES, 'bundle', 'src');
    const dot = find(BUNDLE_JS, 'return a.x * b.x');
    const total = find(BUNDLE_JS, 'return dot(points[0]');
    assert.deepEqual(await resolver.original(BUNDLE_JS, dot.line, dot.column), { path: join(src, 'math.ts'), ...find(join(src, 'math.ts'), 'return a.x * b.x'), name: null });
    assert.deepEqual(await resolver.original(BUNDLE_JS, total.line, total.column), { path: join(src, 'main.ts'), ...find(join(src, 'main.ts'), 'return dot('), name: null });
    // The bundler's helpers at the top map to nothing.
    assert.equal(await resolver.originalLine(BUNDLE_JS, find(BUNDLE_JS, 'var __defProp').line), null);
  });
});

describe('SourceMapResolver: finding the map', () => {
  it('reads an external map next to the file, and relative to it in another folder', async () => {
    const fs = memoryFs({
      '/proj/dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=../maps/a.js.map\n`,
      '/proj/maps/a.js.map': mapJson({ sources: ['../src/a.ts'], lines: SIMPLE_LINES }),
      '/proj/src/a.ts': '',
    });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    assert.deepEqual(await resolver.original('/proj/dist/a.js', 2, 3), { path: '/proj/src/a.ts', line: 9, column: 3, name: null });
  });

  it('falls back to <file>.map when there is no sourceMappingURL comment', async () => {
    const fs = memoryFs({
      '/proj/dist/a.js': GENERATED_CODE,
      '/proj/dist/a.js.map': mapJson({ sources: ['../src/a.ts'], lines: SIMPLE_LINES }),
      '/proj/src/a.ts': '',
    });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    assert.deepEqual(await resolver.original('/proj/dist/a.js', 1, 1), { path: '/proj/src/a.ts', line: 5, column: 1, name: null });
    assert.equal(resolver.problem('/proj/dist/a.js'), null);
  });

  it('says "no sourceMappingURL" when there is neither a comment nor a .map file', async () => {
    const fs = memoryFs({ '/proj/dist/a.js': GENERATED_CODE });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    assert.equal(await resolver.original('/proj/dist/a.js', 1, 1), null);
    assert.equal(resolver.problem('/proj/dist/a.js'), 'no sourceMappingURL');
    assert.equal(resolver.problem('/proj/dist/other.js'), null, 'nothing known about a file never looked up');
  });

  it('reads inline maps: base64 (with or without charset), percent-encoded, and in a block comment', async () => {
    const map = mapJson({ sources: ['../src/a.ts'], lines: SIMPLE_LINES });
    const b64 = Buffer.from(map).toString('base64');
    const variants = [
      `//# sourceMappingURL=data:application/json;base64,${b64}`,
      `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${b64}`,
      `//@ sourceMappingURL=data:application/json;charset=UTF-8;base64,${b64}`,
      `//# sourceMappingURL=data:application/json,${encodeURIComponent(map)}`,
      `/*# sourceMappingURL=data:application/json;base64,${b64} */`,
    ];
    for (const comment of variants) {
      const fs = memoryFs({ '/proj/dist/a.js': `${GENERATED_CODE}${comment}\n`, '/proj/src/a.ts': '' });
      const resolver = new SourceMapResolver({ readFile: fs.readFile });
      assert.deepEqual(await resolver.original('/proj/dist/a.js', 1, 7), { path: '/proj/src/a.ts', line: 5, column: 7, name: null }, comment.slice(0, 60));
      assert.equal(fs.count('/proj/dist/a.js.map'), 0, 'an inline map needs no .map file');
    }
  });

  it('takes the last sourceMappingURL comment, and ignores one inside a string', async () => {
    const code = [
      '//# sourceMappingURL=first.js.map',
      'const s = "//# sourceMappingURL=" + name;',
      '//# sourceMappingURL=second.js.map',
      'const t = `',
      '//# sourceMappingURL=in-template.js.map`;',
    ].join('\n');
    assert.equal(findSourceMappingUrl(code), 'second.js.map');
    assert.equal(findSourceMappingUrl('x();\n/*# sourceMappingURL=a.map */\r\n'), 'a.map');
    assert.equal(findSourceMappingUrl('x();\r\n//# sourceMappingURL=b.map\r\n'), 'b.map');
    assert.equal(findSourceMappingUrl('x();'), null);
  });

  it('follows file:// and percent-encoded map URLs, and drops a query string', async () => {
    const map = mapJson({ sources: ['a.ts'], lines: SIMPLE_LINES });
    const files = {
      '/proj/dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=file:///proj/my%20maps/a.js.map\n`,
      '/proj/my maps/a.js.map': map,
      '/proj/my maps/a.ts': '',
      '/proj/dist/b.js': `${GENERATED_CODE}//# sourceMappingURL=b%20c.js.map?v=3\n`,
      '/proj/dist/b c.js.map': map,
      '/proj/dist/a.ts': '',
    };
    const resolver = new SourceMapResolver({ readFile: memoryFs(files).readFile });
    assert.equal((await resolver.original('/proj/dist/a.js', 1, 1))?.path, '/proj/my maps/a.ts');
    assert.equal((await resolver.original('/proj/dist/b.js', 1, 1))?.path, '/proj/dist/a.ts');
  });

  it('accepts the generated file as a file:// URL (as ESM frames name it)', async () => {
    const fs = memoryFs({
      '/proj/my dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=a.js.map\n`,
      '/proj/my dist/a.js.map': mapJson({ sources: ['a.ts'], lines: SIMPLE_LINES }),
      '/proj/my dist/a.ts': '',
    });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    assert.equal((await resolver.original('file:///proj/my%20dist/a.js', 1, 1))?.path, '/proj/my dist/a.ts');
    assert.equal(resolver.problem('/proj/my dist/a.js'), null);
  });
});

describe('SourceMapResolver: resolving sources', () => {
  async function resolveSource(source: string, sourceRoot: string | undefined, existing: string[]): Promise<string | null> {
    const files: Record<string, string> = {
      '/proj/dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=a.js.map\n`,
      '/proj/dist/a.js.map': mapJson({ sources: [source], ...(sourceRoot === undefined ? {} : { sourceRoot }), lines: SIMPLE_LINES }),
    };
    for (const f of existing) files[f] = '';
    const resolver = new SourceMapResolver({ readFile: memoryFs(files).readFile });
    return (await resolver.original('/proj/dist/a.js', 1, 1))?.path ?? null;
  }

  it('applies sourceRoot relative to the map folder, with or without a trailing slash, or absolute', async () => {
    assert.equal(await resolveSource('a.ts', '../src', ['/proj/src/a.ts']), '/proj/src/a.ts');
    assert.equal(await resolveSource('lib/a.ts', '../src/', ['/proj/src/lib/a.ts']), '/proj/src/lib/a.ts');
    assert.equal(await resolveSource('a.ts', '/abs/root', ['/abs/root/a.ts']), '/abs/root/a.ts');
    assert.equal(await resolveSource('a.ts', 'file:///abs/my%20root/', ['/abs/my root/a.ts']), '/abs/my root/a.ts');
    assert.equal(await resolveSource('a.ts', '', ['/proj/dist/a.ts']), '/proj/dist/a.ts');
  });

  it('percent-decodes source paths, and keeps raw characters tsc writes unencoded', async () => {
    assert.equal(await resolveSource('../src/my%20app.ts', undefined, ['/proj/src/my app.ts']), '/proj/src/my app.ts');
    assert.equal(await resolveSource('../src/%C3%BC.ts', undefined, ['/proj/src/ü.ts']), '/proj/src/ü.ts');
    assert.equal(await resolveSource('../src/my app.ts', undefined, ['/proj/src/my app.ts']), '/proj/src/my app.ts');
    assert.equal(await resolveSource('../src/100%.ts', undefined, ['/proj/src/100%.ts']), '/proj/src/100%.ts');
    assert.equal(await resolveSource('../c#/a.ts', undefined, ['/proj/c#/a.ts']), '/proj/c#/a.ts');
    assert.equal(await resolveSource('file:///abs/x%20y.ts', undefined, ['/abs/x y.ts']), '/abs/x y.ts');
    assert.equal(await resolveSource('/abs/x.ts', undefined, ['/abs/x.ts']), '/abs/x.ts');
  });

  it('maps webpack:// sources to a file next to the map when it exists, else keeps the URL', async () => {
    assert.equal(await resolveSource('webpack://app/./src/x.ts', undefined, ['/proj/dist/src/x.ts']), '/proj/dist/src/x.ts');
    assert.equal(await resolveSource('webpack:///./src/x.ts', undefined, ['/proj/dist/src/x.ts']), '/proj/dist/src/x.ts');
    assert.equal(await resolveSource('webpack-internal:///./src/x.ts?4a2f', undefined, ['/proj/dist/src/x.ts']), '/proj/dist/src/x.ts');
    assert.equal(await resolveSource('webpack://app/./src/x.ts', undefined, []), 'webpack://app/src/x.ts');
    assert.equal(await resolveSource('webpack:///webpack/bootstrap', undefined, []), 'webpack:///webpack/bootstrap');
    assert.equal(await resolveSource('https://cdn.example/a.ts', undefined, []), 'https://cdn.example/a.ts');
  });

  it('gives null and "source not found" when the original file is missing', async () => {
    const fs = memoryFs({
      '/proj/dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=a.js.map\n`,
      '/proj/dist/a.js.map': mapJson({ sources: ['../src/gone.ts'], lines: SIMPLE_LINES }),
    });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    assert.equal(await resolver.original('/proj/dist/a.js', 1, 1), null);
    assert.equal(resolver.problem('/proj/dist/a.js'), 'source not found: ../src/gone.ts');
  });

  it('does not break on Windows paths', async () => {
    assert.equal(await resolveSource('C:\\proj\\src\\a.ts', undefined, ['C:\\proj\\src\\a.ts']), 'C:\\proj\\src\\a.ts');
    assert.equal(await resolveSource('a.ts', 'C:\\proj\\src', ['C:\\proj\\src\\a.ts']), 'C:\\proj\\src\\a.ts');
    assert.equal(await resolveSource('C:\\proj\\src\\a.ts', undefined, []), null);
    assert.equal(fileUrlToPath('file:///C:/x%20y/a.ts'), 'C:\\x y\\a.ts');
    const fs = memoryFs({ 'C:\\proj\\dist\\a.js': `${GENERATED_CODE}//# sourceMappingURL=C:\\proj\\dist\\a.js.map\n` });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    assert.equal(await resolver.original('C:\\proj\\dist\\a.js', 1, 1), null);
    assert.equal(resolver.problem('C:\\proj\\dist\\a.js'), 'map not found: C:\\proj\\dist\\a.js.map');
  });
});

describe('SourceMapResolver: positions', () => {
  const files = {
    '/proj/dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=a.js.map\n`,
    '/proj/dist/a.js.map': mapJson({
      sources: ['../src/a.ts', null],
      names: ['answer'],
      // Line 1: `const` → a.ts 5:0, `x` → a.ts 5:6 named `answer`, then generated-only code from col 12.
      // Line 2: col 2 → a.ts 9:2. Line 3: col 0 maps to the null source, col 4 → a.ts 20:0.
      lines: [[[0, 0, 4, 0], [6, 0, 4, 6, 0], [12]], [[2, 0, 8, 2]], [[0, 1, 0, 0], [4, 0, 19, 0]]],
    }),
    '/proj/src/a.ts': '',
  };

  it('converts 1-based in and out, and returns the mapping\'s name', async () => {
    const resolver = new SourceMapResolver({ readFile: memoryFs(files).readFile });
    assert.deepEqual(await resolver.original('/proj/dist/a.js', 1, 1), { path: '/proj/src/a.ts', line: 5, column: 1, name: null });
    assert.deepEqual(await resolver.original('/proj/dist/a.js', 1, 7), { path: '/proj/src/a.ts', line: 5, column: 7, name: 'answer' });
    // Between segments: the segment at or before the column.
    assert.deepEqual(await resolver.original('/proj/dist/a.js', 1, 10), { path: '/proj/src/a.ts', line: 5, column: 7, name: 'answer' });
    assert.deepEqual(await resolver.original('/proj/dist/a.js', 2, 5), { path: '/proj/src/a.ts', line: 9, column: 3, name: null });
  });

  it('gives null for positions that map to nothing', async () => {
    const resolver = new SourceMapResolver({ readFile: memoryFs(files).readFile });
    assert.equal(await resolver.original('/proj/dist/a.js', 1, 13), null, 'a segment without a source');
    assert.equal(await resolver.original('/proj/dist/a.js', 2, 1), null, 'before the first segment of the line');
    assert.equal(await resolver.original('/proj/dist/a.js', 3, 1), null, 'a segment with a null source');
    assert.equal(await resolver.original('/proj/dist/a.js', 4, 1), null, 'a line past the last mapping');
    assert.equal(resolver.problem('/proj/dist/a.js'), null);
    assert.equal(await resolver.original('/proj/dist/a.js', 0, 1), null);
    assert.equal(await resolver.original('/proj/dist/a.js', Number.NaN, 1), null);
    assert.equal(await resolver.original('/proj/dist/a.js', 2.5, 1), null);
  });

  it('line-only: the first mapping with a source on the line, column 0 and no name', async () => {
    const resolver = new SourceMapResolver({ readFile: memoryFs(files).readFile });
    assert.deepEqual(await resolver.originalLine('/proj/dist/a.js', 1), { path: '/proj/src/a.ts', line: 5, column: 0, name: null });
    assert.deepEqual(await resolver.originalLine('/proj/dist/a.js', 3), { path: '/proj/src/a.ts', line: 20, column: 0, name: null });
    assert.equal(await resolver.originalLine('/proj/dist/a.js', 4), null);
  });

  it('reads sectioned (index) maps', async () => {
    const section = JSON.parse(mapJson({ sources: ['../src/a.ts'], lines: SIMPLE_LINES })) as object;
    const fs = memoryFs({
      '/proj/dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=a.js.map\n`,
      '/proj/dist/a.js.map': JSON.stringify({ version: 3, sections: [{ offset: { line: 1, column: 0 }, map: section }] }),
      '/proj/src/a.ts': '',
    });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    assert.deepEqual(await resolver.original('/proj/dist/a.js', 2, 1), { path: '/proj/src/a.ts', line: 5, column: 1, name: null });
  });
});

describe('SourceMapResolver: broken maps never throw', () => {
  const js = `${GENERATED_CODE}//# sourceMappingURL=a.js.map\n`;

  it('a missing map file: null and "map not found"', async () => {
    const resolver = new SourceMapResolver({ readFile: memoryFs({ '/proj/dist/a.js': js }).readFile });
    assert.equal(await resolver.original('/proj/dist/a.js', 1, 1), null);
    assert.equal(await resolver.originalLine('/proj/dist/a.js', 1), null);
    assert.equal(resolver.problem('/proj/dist/a.js'), 'map not found: a.js.map');
  });

  it('corrupt or wrong JSON: null and the reason', async () => {
    const cases: Array<[string, string]> = [
      ['{"version":3,"sources":["a.ts"],"mappings":"AAAA"', 'invalid map JSON'],
      ['', 'invalid map JSON'],
      ['null', 'invalid map JSON'],
      ['[1,2]', 'invalid map JSON'],
      ['{"version":3,"sources":["a.ts"]}', 'not a source map (no "mappings")'],
      ['{"version":3,"mappings":"AAAA"}', 'not a source map (no "sources")'],
      ['{"version":3,"sections":[{"offset":{"line":0,"column":0},"url":"x.map"}]}', 'index map sections without an inline "map" are not supported'],
    ];
    for (const [map, problem] of cases) {
      const resolver = new SourceMapResolver({ readFile: memoryFs({ '/proj/dist/a.js': js, '/proj/dist/a.js.map': map }).readFile });
      assert.equal(await resolver.original('/proj/dist/a.js', 1, 1), null, map);
      assert.equal(resolver.problem('/proj/dist/a.js'), problem, map);
    }
  });

  it('junk inside a well-formed map: null, never a throw', async () => {
    const maps = [
      '{"version":3,"sources":["a.ts"],"mappings":"!!!;;@@@,,,"}',
      '{"version":3,"sources":["a.ts"],"mappings":"AAkBA,gCAAgC"}',
      '{"version":3,"sources":[1,{}],"names":[5],"mappings":"AAAAA,CCCCC"}',
      '{"version":3,"sections":"nope"}',
    ];
    for (const map of maps) {
      const resolver = new SourceMapResolver({ readFile: memoryFs({ '/proj/dist/a.js': js, '/proj/dist/a.js.map': map, '/proj/dist/a.ts': '' }).readFile });
      for (const [line, column] of [[1, 1], [1, 3], [2, 1], [3, 1]] as const) {
        const pos = await resolver.original('/proj/dist/a.js', line, column);
        assert.ok(pos === null || typeof pos.path === 'string', map);
        await resolver.originalLine('/proj/dist/a.js', line);
      }
    }
  });

  it('bad data URLs, remote maps, and a readFile that rejects', async () => {
    const cases: Array<[string, string]> = [
      ['//# sourceMappingURL=data:application/json;base64,!!!', 'invalid inline source map (data: URL)'],
      ['//# sourceMappingURL=data:application/json,%E0%A4%A', 'invalid inline source map (data: URL)'],
      ['//# sourceMappingURL=https://example.com/a.js.map', 'remote source map not supported: https://example.com/a.js.map'],
    ];
    for (const [comment, problem] of cases) {
      const resolver = new SourceMapResolver({ readFile: memoryFs({ '/proj/dist/a.js': `x();\n${comment}\n` }).readFile });
      assert.equal(await resolver.original('/proj/dist/a.js', 1, 1), null);
      assert.equal(resolver.problem('/proj/dist/a.js'), problem);
    }
    const rejecting = new SourceMapResolver({ readFile: () => Promise.reject(new Error('EACCES')) });
    assert.equal(await rejecting.original('/proj/dist/a.js', 1, 1), null);
    assert.equal(rejecting.problem('/proj/dist/a.js'), 'cannot read a.js');
    const throwing = new SourceMapResolver({
      readFile: () => {
        throw new Error('sync throw');
      },
    });
    assert.equal(await throwing.originalLine('/proj/dist/a.js', 1), null);
  });
});

describe('SourceMapResolver: caching', () => {
  it('reads each file once, even for many concurrent lookups', async () => {
    const fs = memoryFs({
      '/proj/dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=a.js.map\n`,
      '/proj/dist/a.js.map': mapJson({ sources: ['../src/a.ts'], lines: SIMPLE_LINES }),
      '/proj/src/a.ts': '',
    });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    const lookups = [];
    for (let i = 0; i < 20; i++) {
      lookups.push(resolver.original('/proj/dist/a.js', 1 + (i % 2), 1 + (i % 7)));
      lookups.push(resolver.originalLine('/proj/dist/a.js', 1 + (i % 3)));
    }
    const results = await Promise.all(lookups);
    assert.equal(results.filter((r) => r !== null).length > 0, true);
    await resolver.original('/proj/dist/a.js', 2, 3);
    assert.deepEqual([...fs.reads].sort(), ['/proj/dist/a.js', '/proj/dist/a.js.map', '/proj/src/a.ts']);
  });

  it('caches failures too', async () => {
    const fs = memoryFs({ '/proj/dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=a.js.map\n` });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    await Promise.all([resolver.original('/proj/dist/a.js', 1, 1), resolver.original('/proj/dist/a.js', 2, 1)]);
    await resolver.originalLine('/proj/dist/a.js', 1);
    assert.deepEqual(fs.reads, ['/proj/dist/a.js', '/proj/dist/a.js.map']);
    assert.equal(resolver.problem('/proj/dist/a.js'), 'map not found: a.js.map');
  });

  it('reads an original source once for all the maps that name it', async () => {
    const map = mapJson({ sources: ['../src/shared.ts'], lines: SIMPLE_LINES });
    const fs = memoryFs({
      '/proj/dist/a.js': `${GENERATED_CODE}//# sourceMappingURL=a.js.map\n`,
      '/proj/dist/a.js.map': map,
      '/proj/dist/b.js': `${GENERATED_CODE}//# sourceMappingURL=b.js.map\n`,
      '/proj/dist/b.js.map': map,
      '/proj/src/shared.ts': '',
    });
    const resolver = new SourceMapResolver({ readFile: fs.readFile });
    await Promise.all([resolver.original('/proj/dist/a.js', 1, 1), resolver.original('/proj/dist/b.js', 1, 1)]);
    assert.equal(fs.count('/proj/src/shared.ts'), 1);
  });
});

describe('sourceMapUrl helpers', () => {
  it('readDataUrl', () => {
    assert.equal(readDataUrl(`data:application/json;base64,${Buffer.from('{"a":"ü"}').toString('base64')}`), '{"a":"ü"}');
    assert.equal(readDataUrl('data:application/json,%7B%22a%22%3A1%7D'), '{"a":1}');
    assert.equal(readDataUrl('data:application/json;base64'), null);
    assert.equal(readDataUrl('file:///x'), null);
  });

  it('fileUrlToPath and percentDecode', () => {
    assert.equal(fileUrlToPath(pathToFileURL('/a b/c#d/e%f.ts').href), '/a b/c#d/e%f.ts');
    assert.equal(fileUrlToPath('file://localhost/x/y.ts'), '/x/y.ts');
    assert.equal(fileUrlToPath('file://server/share/y.ts'), '//server/share/y.ts');
    assert.equal(percentDecode('a%20b%'), 'a b%');
    assert.equal(percentDecode('%FF%20%C3%BC'), '%FF ü');
  });
});
