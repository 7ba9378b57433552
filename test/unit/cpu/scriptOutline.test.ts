/**
 * A script's outline (where each function begins and ends, which lines hold code): what tells a
 * function's own lines from the lines of code V8 inlined into it (inlinedLines.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { functionAt, outlineScript, ownsLine } from '../../../src/core/cpu/scriptOutline';

const SOURCE = [
  '#!/usr/bin/env node', // 1
  "'use strict';", // 2
  '// a comment', // 3
  '', // 4
  'function outer(a) {', // 5
  '  const xs = [a].map((x) => x * 2);', // 6
  '  function inner() {', // 7
  '    return 1;', // 8
  '  }', // 9
  '  return xs[0] + inner();', // 10
  '}', // 11
  'return outer(2);', // 12: a CommonJS top level may return
].join('\r\n');

describe('script outline', () => {
  const outline = outlineScript(SOURCE)!;

  it('finds each function by the position V8 gives it (its parameter list), the top level by 0:0', () => {
    assert.ok(outline);
    const outer = functionAt(outline, 4, 14); // the "(" of outer, 0-based
    const inner = functionAt(outline, 6, 16);
    const arrow = functionAt(outline, 5, 22);
    assert.deepEqual([outline.functions[outer]!.startLine, outline.functions[outer]!.endLine], [5, 11]);
    assert.deepEqual([outline.functions[inner]!.startLine, outline.functions[inner]!.endLine], [7, 9]);
    assert.deepEqual([outline.functions[arrow]!.startLine, outline.functions[arrow]!.endLine], [6, 6]);
    assert.equal(functionAt(outline, 0, 0), 0);
    assert.equal(functionAt(outline, 99, 0), -1);
  });

  it('own lines: code only, not wholly inside a nested function; a line shared with a nested one stays the outer\'s', () => {
    const outer = functionAt(outline, 4, 14);
    assert.deepEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter((l) => ownsLine(outline, outer, l)), [5, 6, 7, 9, 10, 11]);
    // The top level: its statements, and the line where outer begins (which may hold its code too); not the #! line.
    assert.deepEqual([1, 2, 3, 4, 5, 8, 12].filter((l) => ownsLine(outline, 0, l)), [2, 5, 12]);
  });

  it('a source acorn cannot parse (TypeScript) has no outline', () => {
    assert.equal(outlineScript('function f(a: number): number { return a; }'), null);
  });

  it('names the modules a script loads by string literals, in every form', () => {
    const m = outlineScript('import a from "./a.js";\nexport * from "../b";\nexport { c } from "c";\nconst d = require("./d");\nimport("./e.mjs");\nrequire(name);\n', true)!;
    assert.deepEqual(m.imports, ['./a.js', '../b', 'c', './d', './e.mjs']);
  });

  it('ES modules parse too', () => {
    const m = outlineScript('import x from "y";\nexport function f() {\n  return x;\n}\n', true)!;
    assert.equal(m.functions.length, 2);
    assert.ok(ownsLine(m, 1, 3));
  });
});
