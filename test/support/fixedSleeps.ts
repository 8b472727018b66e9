/**
 * Finds fixed sleeps in test code for `test/noFixedSleeps.test.ts`: a wait of a literal number of
 * milliseconds (`await new Promise((r) => setTimeout(r, 50))`, `await sleep(50)` with
 * `setTimeout` from `node:timers/promises` or a helper named sleep/delay/pause/tick/wait) that is
 * neither inside a loop (a poll) nor marked with a `// sleep-ok: <reason>` comment on its line or
 * in the comment lines right above it. Read with the TypeScript parser, so code inside strings (scripts a test writes
 * to disk) does not count.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One fixed sleep: its 1-based line and the line's text. */
export interface FixedSleep {
  line: number;
  text: string;
}

/** The marker that keeps a fixed sleep, with the reason no condition can be polled. */
export const SLEEP_OK = /\/\/\s*sleep-ok:\s*\S/;

const HELPER_NAMES = new Set(['sleep', 'delay', 'pause', 'tick', 'wait']);

const LOOPS = new Set([
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
]);

/** Names bound to `setTimeout` of `node:timers/promises` (`import { setTimeout as sleep }`). */
function promiseTimerNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    if (!/^(node:)?timers\/promises$/.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements)
      if ((element.propertyName ?? element.name).text === 'setTimeout')
        names.add(element.name.text);
  }
  return names;
}

/** Whether `call` waits a literal number of milliseconds. */
function isFixedSleep(call: ts.CallExpression, timerNames: Set<string>): boolean {
  if (!ts.isIdentifier(call.expression)) return false;
  const name = call.expression.text;
  const [first, second] = call.arguments;
  if (timerNames.has(name) || HELPER_NAMES.has(name))
    return first !== undefined && ts.isNumericLiteral(first);
  // The global setTimeout resolving a promise: setTimeout(resolve, 50).
  return (
    name === 'setTimeout' &&
    first !== undefined &&
    ts.isIdentifier(first) &&
    second !== undefined &&
    ts.isNumericLiteral(second)
  );
}

/** Whether `node` runs inside a loop of its own function (the executor of `new Promise` is seen through). */
function insideLoop(node: ts.Node): boolean {
  for (let at = node.parent; at; at = at.parent) {
    if (LOOPS.has(at.kind)) return true;
    if (ts.isFunctionLike(at)) {
      const parent = at.parent;
      const isExecutor =
        parent !== undefined &&
        ts.isNewExpression(parent) &&
        ts.isIdentifier(parent.expression) &&
        parent.expression.text === 'Promise';
      if (!isExecutor) return false;
    }
  }
  return false;
}

/** Whether line `at` (0-based) or the `//` comment lines right above it carry `sleep-ok`. */
function marked(lines: string[], at: number): boolean {
  if (SLEEP_OK.test(lines[at] ?? '')) return true;
  for (let line = at - 1; line >= 0 && lines[line]!.trim().startsWith('//'); line--)
    if (SLEEP_OK.test(lines[line]!)) return true;
  return false;
}

/** Text that may hold a sleep: only such files are parsed. */
const MAY_SLEEP = /timers\/promises|\b(setTimeout|sleep|delay|pause|tick|wait)\s*\(/;

/** The fixed sleeps of one file's text that are neither in a loop nor marked `sleep-ok`. */
export function fixedSleeps(file: string, text: string): FixedSleep[] {
  if (!MAY_SLEEP.test(text)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const lines = text.split('\n');
  const timerNames = promiseTimerNames(source);
  const found: FixedSleep[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isFixedSleep(node, timerNames) && !insideLoop(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      if (!marked(lines, line)) found.push({ line: line + 1, text: lines[line]!.trim() });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every unmarked fixed sleep in the `.ts` files under `dir`, as `file:line: text` (file relative to `dir`). */
export function fixedSleepsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && !file.split(path.sep).includes('node_modules'))
    .sort()
    .flatMap((file) => {
      const name = file.split(path.sep).join('/');
      return fixedSleeps(name, readFileSync(path.join(dir, file), 'utf8')).map(
        (sleep) => `${name}:${sleep.line}: ${sleep.text}`,
      );
    });
}
