// Plain-language explanations of V8's deoptimization reasons: data only, the lookup is in deoptReasons.ts.
//
// The reason strings are V8's own (src/deoptimizer/deoptimize-reason.h: DEOPTIMIZE_REASON_LIST and
// LAZY_DEOPTIMIZE_REASON_LIST), in the spellings of the V8 versions in Node 18–24 and a few newer ones,
// plus the dependency-group names older V8 prints for lazy deopts (src/objects/dependent-code.cc) and
// the C++ enum names some tools print (compared with spaces and punctuation removed).
//
// Every `match` string is lower case, trimmed, single-spaced, and claimed by one entry only.
// `prefix` strings catch variants V8 adds (e.g. "not a Number or Oddball" → "not a number").
// `short` ≤ 28 chars; `explanation` and `fix` ≤ 240 chars each.

export interface DeoptReasonEntry {
  /** Exact reason strings, lower case. */
  match: string[];
  /** Lower-case prefixes, tried after every exact match failed; the longest wins. */
  prefix?: string[];
  short: string;
  explanation: string;
  fix: string;
  harmless: boolean;
}

/**
 * "Insufficient type feedback for <operation>": the operation's words (lower case, as after "for ")
 * → a phrase that replaces {@link FEEDBACK_OPERATION_PLACEHOLDER} in that entry's explanation.
 */
export const FEEDBACK_OPERATIONS: Readonly<Record<string, string>> = {
  'binary operation': 'this arithmetic or bitwise operator (+, -, *, |, …)',
  'compare operation': 'this comparison (<, ===, …)',
  'unary operation': 'this unary operator (-x, ++, !x, …)',
  'generic named access': 'this property access (obj.name)',
  'generic keyed access': 'this computed access (obj[key], arr[i])',
  'generic global access': 'this global variable access',
  call: 'this function call',
  construct: 'this `new` call',
  'for-in': 'this for-in loop',
  'array literal': 'this array literal',
  'object literal': 'this object literal',
  instanceof: 'this instanceof check',
  typeof: 'this typeof check',
};

/** The words in the insufficient-feedback explanation that the specific operation replaces. */
export const FEEDBACK_OPERATION_PLACEHOLDER = 'this operation';

export const DEOPT_REASONS: readonly DeoptReasonEntry[] = [
  // ---- Warm-up and OSR: usually harmless -------------------------------------------------------
  {
    match: [],
    prefix: ['insufficient type feedback'],
    short: 'insufficient feedback',
    explanation:
      'V8 optimized this function before this operation had ever run, so it had no type information for it and bailed out on first use. Normal during warm-up: V8 records the types and optimizes again.',
    fix: 'Usually nothing. If it repeats on the same line, that path runs rarely and late; moving rare branches into their own function keeps the hot one stable.',
    harmless: true,
  },
  {
    match: ['prepare for on stack replacement (osr)', 'prepareforonstackreplacement', 'prepare for osr'],
    prefix: ['prepare for on stack replacement'],
    short: 'OSR',
    explanation:
      'Not a failure: a long-running loop is being moved to better optimized code while it runs (on-stack replacement, OSR). V8 leaves the current code briefly to switch over.',
    fix: 'Nothing to fix; look at other deopts first.',
    harmless: true,
  },
  {
    match: ["exit from osr'd inner loop", 'osr early exit', 'osrearlyexit', 'exit from osr'],
    prefix: ["exit from osr'd"],
    short: 'OSR exit',
    explanation:
      'Not a failure: code entered in the middle of a loop (on-stack replacement, OSR) finished that inner loop and handed control back, usually to switch to code for the whole function.',
    fix: 'Nothing to fix; look at other deopts first.',
    harmless: true,
  },

  // ---- Object shapes ----------------------------------------------------------------------------
  {
    match: ['wrong map', 'missing map', 'wrong handler'],
    short: 'wrong map',
    explanation:
      'Objects of a different shape (hidden class) reached code optimized for one shape: the same properties added in another order, a property added or deleted later, or a different class.',
    fix: 'Create objects with all their properties in the constructor or literal, in the same order; avoid `delete`; keep one shape per call site.',
    harmless: false,
  },
  {
    match: ['map changed during operation'],
    short: 'shape changed mid-operation',
    explanation:
      "An object's shape (hidden class) changed in the middle of an operation, e.g. a getter, valueOf/toString or a Proxy trap added or removed properties on it.",
    fix: "Don't add or delete properties from getters, valueOf/toString or callbacks that run during property access or conversion.",
    harmless: false,
  },
  {
    match: ['deprecated map'],
    short: 'deprecated map',
    explanation:
      'An object still had an outdated shape (hidden class): V8 replaced that shape after a property started holding another kind of value (integer → fraction, number → object), and optimized code refuses the old one.',
    fix: 'Give each property its final kind of value from the start (e.g. 0.5 rather than 0 for a float field, {} or null consistently for objects), so shapes are not rebuilt after warm-up.',
    harmless: false,
  },
  {
    match: ['instance migration failed'],
    short: 'shape migration failed',
    explanation:
      "An object with an outdated shape (hidden class) could not be upgraded to the current one, so optimized code couldn't handle it.",
    fix: 'Initialize every property with its final kind of value in the constructor, in the same order, so V8 does not have to migrate objects later.',
    harmless: false,
  },
  {
    match: ['ic transitioned to monomorphic', 'ic transitioned to megamorphic', 'transitionedtomonomorphicic', 'transitionedtomegamorphicic'],
    short: 'inline cache changed',
    explanation:
      "A property access site's inline cache (V8's per-site record of the object shapes seen) changed after optimization: new shapes started arriving.",
    fix: 'Keep one object shape per access site: same properties, same order, set in the constructor; avoid mixing many classes through one function.',
    harmless: false,
  },
  {
    match: ['wrong instance type'],
    short: 'wrong object type',
    explanation:
      'A different kind of object arrived than the optimized code was built for, e.g. an array where a plain object was expected, or a Map instead of an array.',
    fix: 'Pass one kind of object through each hot function; split code that handles arrays, maps and plain objects into separate functions.',
    harmless: false,
  },

  // ---- Numbers ---------------------------------------------------------------------------------
  {
    match: ['not a smi'],
    short: 'not a Smi',
    explanation:
      'Code optimized for small integers (Smis: 31- or 32-bit ints V8 stores unboxed) got something else: a fraction, a larger number, NaN, or a non-number such as a string or undefined.',
    fix: 'Keep the values here small integers, or floats from the start; make sure undefined, null or strings never flow in (missing arguments, unparsed input).',
    harmless: false,
  },
  {
    match: ['smi', 'not a heap object'],
    short: 'unexpected Smi',
    explanation:
      'Code that expected an object (or a boxed number, string, …) got a small integer (Smi) instead, e.g. a number where an object usually arrives.',
    fix: "Don't mix numbers with objects or strings in the same variable, argument or array; use null rather than 0 for \"no object\".",
    harmless: false,
  },
  {
    match: ['not a heap number'],
    short: 'not a heap number',
    explanation:
      'Code optimized for floating-point numbers (heap numbers: numbers V8 stores boxed, like 1.5) got something that is not a number, e.g. undefined, a string or an object.',
    fix: 'Keep this value always a number: initialize it (0 not undefined), parse strings once at the boundary, and avoid null/undefined in numeric fields.',
    harmless: false,
  },
  {
    match: ['not a number', 'not a number or oddball', 'not a number or boolean', 'not a number or undefined'],
    prefix: ['not a number'],
    short: 'not a number',
    explanation:
      'Arithmetic or a comparison optimized for numbers got a non-number: a string, an object, or undefined/null/a boolean (V8 calls those oddballs).',
    fix: 'Convert once where data enters (Number(x), parseInt), give numeric variables and fields a number from the start, and avoid undefined holes.',
    harmless: false,
  },
  {
    match: ['not int32', 'not unsigned int32', 'not additivesafeinteger', 'not an additive safe integer'],
    short: 'not a 32-bit integer',
    explanation:
      'Code specialized for integers in a fixed range got a value outside it: a fraction, a number too large, or a negative where an unsigned integer was expected.',
    fix: 'Keep the values here in one numeric range; use `| 0` or `>>> 0` only where you really want 32-bit integers, and keep fractions out of integer paths.',
    harmless: false,
  },
  {
    match: ['overflow'],
    short: 'integer overflow',
    explanation:
      'Integer math was optimized for small integers and a result went past the 32-bit range, so it no longer fits the integer representation the code was built for.',
    fix: 'One-off is fine: V8 re-optimizes for doubles. If it repeats, the values swing between small and huge; keep counters/sums in one range or start them as floats.',
    harmless: false,
  },
  {
    match: ['lost precision', 'lost precision or nan'],
    prefix: ['lost precision'],
    short: 'lost precision',
    explanation:
      'A number the optimized code treated as an integer turned out to have a fraction, be NaN, or be too large to convert exactly (e.g. a float used as an index or in a bitwise operation).',
    fix: 'Round explicitly (Math.floor, | 0) before using numbers as indexes or integers, and keep integer and floating-point values in separate variables.',
    harmless: false,
  },
  {
    match: ['minus zero'],
    short: 'minus zero',
    explanation:
      'Integer code produced -0 (e.g. 0 * -1, -x with x = 0, or Math.round(-0.3)); -0 is not an integer in V8, so the code optimized for integers had to bail out.',
    fix: 'If -0 is meaningless for you, normalize with `x | 0` or `x + 0` at that spot; avoid negating or multiplying zeros by negatives in integer-only paths.',
    harmless: false,
  },
  {
    match: ['nan'],
    short: 'NaN',
    explanation:
      'Optimized numeric code got NaN, typically from undefined in arithmetic (undefined + 1), 0 / 0, or parsing a non-numeric string.',
    fix: 'Find where NaN comes from: initialize numbers, check parse results (Number.isNaN), and make sure missing fields or arguments never reach the math.',
    harmless: false,
  },
  {
    match: ['division by zero'],
    short: 'division by zero',
    explanation:
      'Integer division or % was optimized for non-zero divisors and got 0, so the result (Infinity or NaN) is no longer an integer.',
    fix: 'Guard the divisor (`if (d === 0) …`) before dividing in hot code, so the zero case takes its own branch.',
    harmless: false,
  },
  {
    match: ['not a bigint', 'not a bigint64', 'bigint too big'],
    prefix: ['not a bigint'],
    short: 'BigInt mismatch',
    explanation:
      'Code optimized for BigInts got something else, or a BigInt too large for the 64-bit fast path it was specialized for.',
    fix: "Don't mix BigInt and Number in the same variable or function; keep BigInts within 64 bits if you want the fast path.",
    harmless: false,
  },

  // ---- Other value types -----------------------------------------------------------------------
  {
    match: [
      'not a string',
      'not a string or a string wrapper',
      'not a string wrapper',
      'not a string or oddball',
      'not a sequential one-byte string',
    ],
    prefix: ['not a string', 'not a sequential'],
    short: 'not a string',
    explanation:
      'Code optimized for strings got another kind of value (a number, undefined, an object) or a string stored differently (e.g. a concatenation, a slice, or one with non-Latin-1 characters).',
    fix: 'Keep this value always a string: convert once with String(x), avoid undefined; for heavy string work on built-up strings, flatten early.',
    harmless: false,
  },
  {
    match: ['not a symbol'],
    short: 'not a symbol',
    explanation: 'Code optimized for a Symbol (e.g. a symbol-keyed property access) got another kind of value.',
    fix: 'Use one key type per access site: keep symbol keys and string keys in separate code paths.',
    harmless: false,
  },
  {
    match: ['not a javascript object', 'not a javascript object, null or undefined', 'not a detectable receiver', 'not detectable receiver'],
    prefix: ['not a javascript object'],
    short: 'not an object',
    explanation:
      'Code optimized to receive an object got a primitive instead (number, string, boolean, undefined), e.g. a method call or property access on a value that is sometimes not an object.',
    fix: 'Pass objects consistently; normalize optional values (null vs {}) before the hot path, and avoid calling methods on primitives in tight loops.',
    harmless: false,
  },

  // ---- Arrays and typed arrays -----------------------------------------------------------------
  {
    match: ['out of bounds'],
    short: 'out of bounds',
    explanation:
      'An array or typed-array access read or wrote past the end (index ≥ length, or negative), which the optimized code assumed never happens.',
    fix: "Check loop bounds (`i < arr.length`, not `<=`); don't read past the end to detect the end; preallocate and fill arrays in order.",
    harmless: false,
  },
  {
    match: ['hole', 'hole or undefined'],
    short: 'array hole',
    explanation:
      'The code read an empty slot of a holey array: one created with `new Array(n)`, with `delete arr[i]`, or by writing past its end.',
    fix: 'Build arrays with push or literals, fill them with default values instead of leaving gaps, and never `delete` array elements.',
    harmless: false,
  },
  {
    match: ['not an array index'],
    short: 'not an array index',
    explanation: 'A value used as an array index was not a valid integer index (a fraction, a negative, a string key, or too large).',
    fix: 'Index arrays with non-negative integers only; round computed indexes and keep string keys for objects or Maps.',
    harmless: false,
  },
  {
    match: ["copy-on-write array's elements changed", 'cowarrayelementschanged'],
    short: 'array literal modified',
    explanation:
      'Arrays made from the same literal share one copy-on-write store until first written; a write gave this array its own store, unlike what the optimized code expected.',
    fix: 'One-off is harmless. If it repeats, copy the literal before mutating it (`[...lit]`, `slice()`), or build the array with push.',
    harmless: false,
  },
  {
    match: ['failed to grow elements store', 'length is greater than the maximum for fast elements array'],
    short: 'array too large',
    explanation:
      'The optimized code could not grow the array in place: it needed more room than the fast path allows, or the array got too long to stay a fast array.',
    fix: 'Preallocate large arrays or use typed arrays for big numeric data; avoid growing arrays by writing far past their end.',
    harmless: false,
  },
  {
    match: ['the array length changed', 'array length changed'],
    short: 'array length changed',
    explanation:
      "An array's length changed while a built-in like forEach, map or reduce was looping over it, e.g. its callback pushed or removed elements.",
    fix: "Don't modify an array inside its own forEach/map/reduce callback; collect changes and apply them after the loop.",
    harmless: false,
  },
  {
    match: ['no initial element'],
    short: 'reduce on empty array',
    explanation: 'reduce() without an initial value was called on an empty array (it throws), which the optimized code assumed never happens.',
    fix: 'Always pass an initial value to reduce/reduceRight.',
    harmless: false,
  },
  {
    match: ['array buffer was detached', 'array buffer was detached or immutable', 'arraybufferwasdetached'],
    prefix: ['array buffer was detached'],
    short: 'buffer detached',
    explanation:
      "A typed array's ArrayBuffer was detached (transferred with postMessage/structuredClone, or otherwise invalidated) while optimized code still used it.",
    fix: "Don't touch a typed array after transferring its buffer; copy instead of transfer if you still need the data.",
    harmless: false,
  },

  // ---- Calls, constants, keys ------------------------------------------------------------------
  {
    match: ['wrong call target', 'wrong call target constructor'],
    prefix: ['wrong call target'],
    short: 'wrong call target',
    explanation:
      'A call site optimized (often inlined) for one function called a different one: e.g. different callbacks passed through one helper, or a method replaced at runtime.',
    fix: 'Keep hot call sites calling one function: avoid passing many different callbacks through one tight helper, and don\'t reassign methods after startup.',
    harmless: false,
  },
  {
    match: ['wrong feedback cell'],
    short: 'different closure',
    explanation:
      'The same function source, but a different closure instance than the one the code was optimized for, typically a function created anew on each call or loop iteration.',
    fix: 'Create callbacks once (outside loops or at module level) and reuse them, instead of making a new closure per call.',
    harmless: false,
  },
  {
    match: ['wrong name', 'unexpected name in keyed access'],
    short: 'wrong property name',
    explanation: 'A computed property access (obj[key]) optimized for one key name got a different key.',
    fix: 'Use obj.name when the key is fixed; for many dynamic keys use a Map, so the access site does not specialize on one name.',
    harmless: false,
  },
  {
    match: ['wrong value', 'value mismatch'],
    short: 'wrong value',
    explanation:
      'The optimized code had baked in a value it had always seen (treated as a constant) and got a different one.',
    fix: 'Values that change after startup should not look constant during warm-up: e.g. set configuration before the hot code runs, not after.',
    harmless: false,
  },
  {
    match: ['storing to a constant field', 'write to constant field', 'const tracking let constness invalidated'],
    short: 'constant overwritten',
    explanation:
      'A property or top-level `let` that V8 treated as constant (written only once so far) was written again.',
    fix: 'One-off is fine. If repeated, assign the final value in the constructor or declaration, or make clear early that it changes (write it during warm-up).',
    harmless: false,
  },
  {
    match: ['wrong enum indices', 'no cache'],
    short: 'for-in cache miss',
    explanation:
      "A for-in loop's cached key list did not fit the object: objects of different shapes or with many/deleted properties (slow dictionary mode) were iterated.",
    fix: 'Prefer Object.keys()/Object.entries() or a Map; keep objects iterated with for-in in one shape and avoid `delete` on them.',
    harmless: false,
  },
  {
    match: ['unexpected context extension', 'dependent empty context extension changed', 'empty-context-extension'],
    short: 'eval/with scope',
    explanation:
      'A variable was added to a scope at runtime (sloppy-mode `eval`, `with`, or a sloppy function declaration in a block), so variable lookups the code relied on changed.',
    fix: "Avoid eval and with; use strict mode (ES modules or 'use strict').",
    harmless: false,
  },

  // ---- Exceptions, generators, strings, tests ------------------------------------------------------
  {
    match: ['first use of catch block', 'exception with omitted catch handler'],
    short: 'exception caught',
    explanation:
      'An exception reached a catch block that optimized code had never seen run, so V8 left compiled code without that handler.',
    fix: "Don't use exceptions for normal control flow in hot code; return an error value instead, or keep try/catch in a small wrapper function.",
    harmless: false,
  },
  {
    match: ['suspendgenerator is in a dead branch'],
    short: 'generator edge case',
    explanation: 'A generator or async function resumed at a point the optimized code considered unreachable.',
    fix: 'Rarely actionable; if it repeats, simplify the control flow around yield/await in this function.',
    harmless: false,
  },
  {
    match: ['result string larger than string::kmaxlength'],
    short: 'string too long',
    explanation: 'Concatenation would produce a string longer than V8 allows (about 536 million characters); this throws a RangeError.',
    fix: 'Build huge output in chunks (arrays of strings, Buffers or streams) instead of one string.',
    harmless: false,
  },
  {
    match: ['%_deoptimizenow', '%deoptimizenow', 'for testing'],
    short: 'forced (test)',
    explanation: 'Deoptimized on purpose by a test helper (%DeoptimizeNow with --allow-natives-syntax).',
    fix: 'Nothing to fix in application code.',
    harmless: false,
  },
  {
    match: ['(unknown)', 'unknown'],
    short: 'no reason recorded',
    explanation:
      'V8 did not record why it threw away the optimized code here. Common for lazy deopts, where the cause is a change elsewhere in the program.',
    fix: 'Look at the other deopts of this function first; if it repeats, check for objects, prototypes or globals modified after warm-up.',
    harmless: false,
  },

  // ---- Lazy deopts: the code was invalidated by a change elsewhere -----------------------------------
  {
    match: ['code dependencies', 'dependency change', 'code dependency change', 'dependency-change', 'code dependency changed'],
    prefix: ['dependent '],
    short: 'dependency changed elsewhere',
    explanation:
      'The optimized code was invalidated by a change elsewhere in the program (e.g. a prototype or a property\'s type changed); V8 does not record which change, and the cause is not on this line.',
    fix: 'Look for code that modifies shared objects after warm-up: methods added to prototypes, properties changing type, globals reassigned. Set them up once at startup.',
    harmless: false,
  },
  {
    match: ['dependent map was deprecated', 'transition'],
    short: 'shape deprecated elsewhere',
    explanation:
      'An object shape (hidden class) this code relied on was replaced because somewhere else a property got a new kind of value. The write happened elsewhere and is not recorded.',
    fix: 'Give properties their final kind of value when objects are created (floats as 0.5-style numbers, objects vs null consistently), so shapes settle before optimization.',
    harmless: false,
  },
  {
    match: ['dependent prototype chain changed', 'prototype-check'],
    short: 'prototype changed elsewhere',
    explanation:
      'Something elsewhere modified a prototype this code relied on: a method added or replaced on a class or built-in prototype, or setPrototypeOf. That change is not recorded.',
    fix: 'Define all methods when the class is declared; never patch prototypes (including Object/Array.prototype) or call setPrototypeOf after startup.',
    harmless: false,
  },
  {
    match: [
      'dependent property cell changed',
      'property-cell-changed',
      'dependent script context slot property changed',
      'script-context-slot-property-changed',
      'dependent context cell state changed',
    ],
    short: 'global changed elsewhere',
    explanation:
      'A global or top-level variable this code treated as constant was reassigned elsewhere, so the code that had its value baked in was thrown away.',
    fix: 'Assign module-level configuration once at startup; keep values that change in an object property or pass them as arguments.',
    harmless: false,
  },
  {
    match: ['dependent field type constness changed', 'field-const'],
    short: 'constant field rewritten',
    explanation:
      'A property this code treated as constant (never rewritten after the object was created) was written again elsewhere, on an object of the same shape. Which write is not recorded.',
    fix: 'If the property is meant to change, nothing to do (one-off). If it is meant to be fixed, set its final value in the constructor instead of assigning it later.',
    harmless: false,
  },
  {
    match: [
      'dependent field type changed',
      'field-type',
      'field type changed',
      'dependent field representation changed',
      'field-representation',
      'field representation changed',
      'field-owner',
    ],
    short: 'field type changed elsewhere',
    explanation:
      'A property of objects of this shape started holding a different kind of value elsewhere (integer → fraction, number → object, object → null), invalidating this code. The write is not recorded.',
    fix: 'Initialize each property with the kind of value it will always hold (0.5-style floats, null vs objects consistently) and never change it later.',
    harmless: false,
  },
  {
    match: ['dependent initial map changed', 'initial-map-changed'],
    short: 'constructor shape changed',
    explanation:
      "The shape of objects a constructor creates changed elsewhere, e.g. its prototype object was replaced, so code that allocates them was invalidated.",
    fix: 'Set up a class or constructor (prototype included) once before creating instances; don\'t reassign Fn.prototype later.',
    harmless: false,
  },
  {
    match: [
      'dependent allocation site tenuring changed',
      'allocation-site-tenuring-changed',
      'dependent allocation site transition changed',
      'allocation-site-transition-changed',
    ],
    short: 'allocation feedback changed',
    explanation:
      "V8's feedback for where objects or arrays are created changed: arrays from one literal started holding doubles or objects, or such objects started living long enough to be promoted.",
    fix: 'Keep arrays from one literal/site one element kind (all ints, all doubles or all objects); usually a one-off after warm-up.',
    harmless: false,
  },
  {
    match: ['marked due to eager deopt'],
    short: 'after another deopt',
    explanation:
      'This code was thrown away because another deopt in the same optimized code already invalidated it; the real cause is that other deopt.',
    fix: 'Fix the eager deopt reported for the same function (wrong map, not a Smi, …); this one then goes away too.',
    harmless: false,
  },
  {
    match: ['embedded weak objects cleared'],
    short: 'object was collected',
    explanation: 'An object the optimized code had embedded (e.g. a map or a function) was garbage-collected, so the code could no longer be used.',
    fix: 'Usually a one-off; if it repeats, the code depends on short-lived functions or objects, e.g. closures or classes created per call.',
    harmless: false,
  },
  {
    match: ['js debugger attached'],
    short: 'debugger attached',
    explanation: 'A debugger attached (or a breakpoint was set), so V8 threw away optimized code to allow stepping.',
    fix: 'Profile without a debugger attached.',
    harmless: false,
  },
  {
    match: ['value in stack frame was materialized'],
    short: 'value materialized',
    explanation:
      'Something (a debugger, Error stack capture, or arguments/function.caller access) needed a value the optimized code had kept only virtually, so the code was thrown away.',
    fix: 'Avoid reading `arguments` or `fn.caller` of other functions and capturing stacks in hot code.',
    harmless: false,
  },
];
