/**
 * Where each function of a script begins and ends, read from its source with a real parser (acorn):
 * what tells a function's own lines from the lines of code V8 inlined into it (see lineSelfTimes.ts).
 * A source acorn cannot parse (TypeScript, JSX, a syntax newer than it knows) has no outline: its
 * lines are then not checked, never guessed.
 */
import type { Node, Token } from 'acorn';

/**
 * acorn, loaded when the first script is outlined: a fifth of the extension's bundle, which the
 * extension host would otherwise compile on every activation (it is a bundle of its own beside
 * the one that asks for it; scripts/build.mjs).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const acorn = (): typeof import('acorn') => require('acorn') as typeof import('acorn');

export interface OutlineFunction {
  /** Source offsets, end exclusive. */
  start: number;
  end: number;
  /** 1-based lines of its first and last character. */
  startLine: number;
  endLine: number;
  /** The function it is written in; -1 for the script's top level (index 0). */
  parent: number;
  /** Functions written directly in it. */
  children: number[];
}

export interface ScriptOutline {
  /** Index 0 is the script's top level (the whole file); then every function, in source order. */
  functions: OutlineFunction[];
  /** Offset of each line's first character (line 1 at index 0). */
  lineStarts: number[];
  /** 1 for each line (line 1 at index 0) with code on it: no sample can fall on a blank or comment line. */
  codeLines: Uint8Array;
  /** The specifiers it names as string literals in `require(…)`, `import`, `import(…)` and `export … from`. */
  imports: string[];
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** The outline of a script, or null when acorn cannot parse it as a script or as a module. */
export function outlineScript(source: string, preferModule = false): ScriptOutline | null {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    // The line terminators ECMAScript counts (as V8 does): \n, \r, \r\n, U+2028, U+2029.
    if (c === 10 || c === 0x2028 || c === 0x2029 || (c === 13 && source.charCodeAt(i + 1) !== 10)) lineStarts.push(i + 1);
  }
  const lineOf = (offset: number) => lineAt(lineStarts, offset);
  const codeLines = new Uint8Array(lineStarts.length);
  // Tokens come in source order: a line pointer that only moves forward marks the lines they are on.
  let line = 0;
  const onToken = (token: Token) => {
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= token.start) line++;
    let last = line;
    while (last + 1 < lineStarts.length && lineStarts[last + 1]! < token.end) last++;
    codeLines.fill(1, line, last + 1);
  };
  const ast = parseEither(source, preferModule, onToken, () => {
    line = 0;
    codeLines.fill(0);
  });
  if (!ast) return null;
  const functions: OutlineFunction[] = [{ start: 0, end: source.length, startLine: 1, endLine: lineStarts.length, parent: -1, children: [] }];
  const imports: string[] = [];
  const visit = (node: Node, parent: number): void => {
    const specifier = importedSpecifier(node);
    if (specifier !== null) imports.push(specifier);
    let inside = parent;
    if (FUNCTION_TYPES.has(node.type)) {
      inside = functions.length;
      functions.push({ start: node.start, end: node.end, startLine: lineOf(node.start), endLine: lineOf(Math.max(node.start, node.end - 1)), parent, children: [] });
      functions[parent]!.children.push(inside);
    }
    for (const key of Object.keys(node)) {
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item, inside);
      } else if (isNode(value)) visit(value, inside);
    }
  };
  try {
    visit(ast, 0);
  } catch {
    return null; // nested past the stack: no outline rather than a wrong one
  }
  return { functions, lineStarts, codeLines, imports };
}

/** The string literal a node loads another module by, or null. */
function importedSpecifier(node: Node): string | null {
  const n = node as unknown as { type: string; source?: { type: string; value?: unknown }; callee?: { type: string; name?: string }; arguments?: { type: string; value?: unknown }[] };
  let literal: { type: string; value?: unknown } | undefined;
  if (n.type === 'ImportDeclaration' || n.type === 'ImportExpression' || n.type === 'ExportAllDeclaration' || n.type === 'ExportNamedDeclaration') literal = n.source;
  else if (n.type === 'CallExpression' && n.callee?.type === 'Identifier' && n.callee.name === 'require' && n.arguments?.length === 1) literal = n.arguments[0];
  return literal?.type === 'Literal' && typeof literal.value === 'string' ? literal.value : null;
}

/**
 * The function V8 names by this call frame position (0-based, as in a .cpuprofile): the innermost one
 * whose source holds it (V8 places a function at its parameter list, inside the function's node);
 * 0 (the top level) for the script itself. -1 when the position is past the source.
 */
export function functionAt(outline: ScriptOutline, line0: number, column0: number): number {
  const lineStart = outline.lineStarts[line0];
  if (lineStart === undefined) return -1;
  const offset = lineStart + column0;
  if (offset > outline.functions[0]!.end) return -1;
  let at = 0;
  for (;;) {
    const next = outline.functions[at]!.children.find((c) => outline.functions[c]!.start <= offset && offset < outline.functions[c]!.end);
    if (next === undefined) return at;
    at = next;
  }
}

/**
 * Whether a 1-based line holds code of function `f` itself: a line with code, within its lines, and
 * not wholly inside a function written in it (a line where a nested function starts or ends may hold
 * the outer's code too).
 */
export function ownsLine(outline: ScriptOutline, f: number, line: number): boolean {
  const fn = outline.functions[f]!;
  if (line < fn.startLine || line > fn.endLine || outline.codeLines[line - 1] !== 1) return false;
  for (const c of fn.children) {
    const child = outline.functions[c]!;
    if (child.startLine < line && line < child.endLine) return false;
  }
  return true;
}

/** Whether `a` is `b` or a function `b` is written in. */
export function enclosesOrIs(outline: ScriptOutline, a: number, b: number): boolean {
  for (let at = b; at >= 0; at = outline.functions[at]!.parent) if (at === a) return true;
  return false;
}

function parseEither(source: string, preferModule: boolean, onToken: (token: Token) => void, retry: () => void): Node | null {
  const kinds: ('script' | 'module')[] = preferModule ? ['module', 'script'] : ['script', 'module'];
  for (const sourceType of kinds) {
    try {
      // A CommonJS module's top level is a function body to V8: `return` and a #! line are allowed.
      return acorn().parse(source, { ecmaVersion: 'latest', sourceType, allowHashBang: true, allowReturnOutsideFunction: sourceType === 'script', allowAwaitOutsideFunction: true, onToken });
    } catch {
      retry();
    }
  }
  return null;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && typeof (value as { start?: unknown }).start === 'number';
}

function lineAt(lineStarts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
