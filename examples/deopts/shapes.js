'use strict';
// A program with deopts you can see in the editor: V8 optimizes `area` for one object shape and
// `add` for small integers, then the program feeds them something else.
function area(shape) {
  return shape.width * shape.height; // "wrong map": other property orders come later
}

function add(a, b) {
  return a + b; // "not a Smi": small integers first, then strings
}

function totalArea(shapes) {
  let sum = 0;
  for (let i = 0; i < shapes.length; i++) sum += area(shapes[i]);
  return sum;
}

const rects = Array.from({ length: 1000 }, (_, i) => ({ width: i, height: 2 }));
let result = 0;
for (let round = 0; round < 300; round++) result += totalArea(rects);

// Same properties, different order and extra fields: different hidden classes.
const mixed = Array.from({ length: 1000 }, (_, i) => (i % 2 ? { height: 2, width: i } : { width: i, height: 2, depth: 1 }));
for (let round = 0; round < 300; round++) result += totalArea(mixed);

// Keep going with both shapes for a while: the hot lines get enough samples for line heat.
const until = Date.now() + 600;
while (Date.now() < until) result += totalArea(mixed) + totalArea(rects);

const ops = [add, (a, b) => a - b];
for (let i = 0; i < 300000; i++) result = ops[i & 1](result | 0, 1);
console.log(add('total: ', String(result)));
