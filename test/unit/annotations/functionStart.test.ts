import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findFunctionStart } from '../../../src/core/annotations/functionStart';

const source = [
  "'use strict';", // 1
  'function area(shape) {', // 2
  '  return shape.width * shape.height;', // 3
  '}', // 4
  'const add = (a, b) => {', // 5
  '  return a + b;', // 6
  '};', // 7
  'class Shop {', // 8
  '  static async total(items: Item[]): Promise<number> {', // 9
  '    return items.length;', // 10
  '  }', // 11
  '  get size() {', // 12
  '    return this.total(1);', // 13
  '  }', // 14
  '}', // 15
  'export function area2<T>(x: T) { return area(x); }', // 16
].join('\n');

describe('findFunctionStart', () => {
  it('finds declarations, arrow functions, methods and accessors at or above the site', () => {
    assert.equal(findFunctionStart(source, 'area', 3), 2);
    assert.equal(findFunctionStart(source, 'add', 6), 5);
    assert.equal(findFunctionStart(source, 'total', 10), 9);
    assert.equal(findFunctionStart(source, 'size', 13), 12);
    assert.equal(findFunctionStart(source, 'area2', 16), 16);
  });

  it('a call is not a declaration; unknown, anonymous and odd names give null', () => {
    assert.equal(findFunctionStart(source, 'total', 8), null, 'nothing above line 8 declares total');
    assert.equal(findFunctionStart(source, '(anonymous)', 10), null);
    assert.equal(findFunctionStart(source, 'missing', 16), null);
    assert.equal(findFunctionStart(source, 'a.b', 16), null);
  });
});
