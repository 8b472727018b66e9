/**
 * Source rules of `test/architecture.test.ts`, read with the TypeScript parser: where the
 * Agents SDK's internals are touched (only `src/sdk/` may), and which module-level state is
 * mutable (only an allow-listed few may be), and which catches drop an error without saying why.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One finding: the file (relative to `src/`), its line and what was found. */
export interface SourceFinding {
  file: string;
  line: number;
  what: string;
}

/** Every `.ts` file under `srcDir`, relative to it, with its parsed source. */
export function sourceFiles(srcDir: string): Array<{ file: string; source: ts.SourceFile }> {
  return readdirSync(srcDir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => ({
      file: file.split(path.sep).join('/'),
      source: ts.createSourceFile(
        file,
        readFileSync(path.join(srcDir, file), 'utf8'),
        ts.ScriptTarget.ES2022,
        true,
      ),
    }));
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** What the SDK-internals rule looks for. */
export interface SdkInternalRules {
  /** Underscore members that are not the SDK's (e.g. MCP's `_meta`). */
  allowedUnderscoreMembers: readonly string[];
  /** Class names of the SDK packages that may not be written as strings (name checks). */
  sdkClassNames: ReadonlySet<string>;
}

const SDK_PACKAGE = /^@openai\/agents(-[a-z]+)?(\/.*)?$/;

/**
 * Uses of SDK internals in one file: an underscore member (`x._context`, `x['_internal']`), a
 * deep import or file path into an SDK package (`@openai/agents-core/dist/…`,
 * `agentToolRunResults.mjs`; an exported subpath such as `@openai/agents-extensions/ai-sdk` is
 * public), or an SDK class name as a string (a `constructor.name` check).
 */
export function sdkInternalUses(
  file: string,
  source: ts.SourceFile,
  rules: SdkInternalRules,
): SourceFinding[] {
  const found: SourceFinding[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push({ file, line: lineOf(source, node), what });
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text.startsWith('_')) {
      if (!rules.allowedUnderscoreMembers.includes(node.name.text))
        report(node, `member ${node.name.text}`);
    } else if (
      ts.isElementAccessExpression(node) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text.startsWith('_')
    ) {
      report(node, `member ${node.argumentExpression.text}`);
    } else if (ts.isStringLiteralLike(node)) {
      const text = node.text;
      const subpath = SDK_PACKAGE.exec(text)?.[2] ?? '';
      if (/\/dist\/|\.[cm]?js$/.test(subpath)) report(node, `deep import ${text}`);
      else if (/agentToolRunResults|agents-[a-z]+\/dist/.test(text)) report(node, `path ${text}`);
      else if (rules.sdkClassNames.has(text)) report(node, `SDK class name '${text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const MUTABLE_COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'AsyncLocalStorage']);

/**
 * The module-level mutable state of one file: a top-level `let`/`var`, a top-level binding to a
 * new empty Map, Set, WeakMap, WeakSet or AsyncLocalStorage (one made with entries is a lookup
 * table), and every write to `globalThis` (direct,
 * or through a top-level alias of it). Each is named `file:binding`.
 */
export function moduleState(file: string, source: ts.SourceFile): SourceFinding[] {
  const found: SourceFinding[] = [];
  const aliases = new Set(['globalThis']);
  const unwrap = (expression: ts.Expression): ts.Expression => {
    let current = expression;
    while (
      ts.isAsExpression(current) ||
      ts.isParenthesizedExpression(current) ||
      ts.isSatisfiesExpression(current) ||
      ts.isNonNullExpression(current)
    )
      current = current.expression;
    return current;
  };
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const mutable = !(statement.declarationList.flags & ts.NodeFlags.Const);
    for (const declaration of statement.declarationList.declarations) {
      const name = declaration.name.getText(source);
      const init = declaration.initializer ? unwrap(declaration.initializer) : undefined;
      if (init && ts.isIdentifier(init) && init.text === 'globalThis') {
        aliases.add(name);
        continue;
      }
      // An empty collection is filled at run time; one made with entries is a lookup table.
      const collection =
        init &&
        ts.isNewExpression(init) &&
        ts.isIdentifier(init.expression) &&
        MUTABLE_COLLECTIONS.has(init.expression.text) &&
        (init.arguments ?? []).length === 0;
      if (mutable || collection)
        found.push({ file, line: lineOf(source, declaration), what: `${file}:${name}` });
    }
  }
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    ) {
      const target = unwrap(node.left);
      if (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) {
        const base = unwrap(target.expression);
        if (ts.isIdentifier(base) && aliases.has(base.text))
          found.push({ file, line: lineOf(source, node), what: `${file}:globalThis` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Catches that drop an error without saying why: a `catch` whose block neither uses the error,
 * throws, nor carries a comment, and a `.catch(() => …)` or `.on('error', () => …)` handler (no
 * parameter, or one left unused) with no comment on its line or the two above. A comment is the minimum: it says why nothing needs
 * logging (best-effort clean-up after the real error was reported, an expected "not found", …).
 */
export function silentCatches(file: string, source: ts.SourceFile): SourceFinding[] {
  const text = source.text;
  const lines = text.split('\n');
  const found: SourceFinding[] = [];
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line;
  const hasComment = (from: number, to: number): boolean => {
    const first = Math.max(0, lineOf(from) - 2); // a comment may cover two lines below it
    const last = lineOf(to);
    return lines.slice(first, last + 1).some((line) => /\/\/|\/\*/.test(line));
  };
  const uses = (node: ts.Node, name: string): boolean => {
    if (ts.isIdentifier(node) && node.text === name) return true;
    let used = false;
    const visit = (child: ts.Node): void => {
      if (used) return;
      if (ts.isIdentifier(child) && child.text === name) used = true;
      else ts.forEachChild(child, visit);
    };
    ts.forEachChild(node, visit);
    return used;
  };
  const throws = (node: ts.Node): boolean => {
    let found = false;
    const visit = (child: ts.Node): void => {
      if (found || ts.isFunctionLike(child)) return;
      if (ts.isThrowStatement(child)) found = true;
      else ts.forEachChild(child, visit);
    };
    ts.forEachChild(node, visit);
    return found;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCatchClause(node)) {
      const binding = node.variableDeclaration?.name;
      const name = binding && ts.isIdentifier(binding) ? binding.text : undefined;
      const handled = (name !== undefined && uses(node.block, name)) || throws(node.block);
      if (!handled && !hasComment(node.getStart(source), node.block.getEnd())) {
        found.push({ file, line: lineOf(node.getStart(source)) + 1, what: 'catch' });
      }
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ((node.expression.name.text === 'catch' && node.arguments.length === 1) ||
        (['on', 'once'].includes(node.expression.name.text) &&
          node.arguments.length === 2 &&
          ts.isStringLiteral(node.arguments[0]!) &&
          node.arguments[0].text === 'error'))
    ) {
      const handler = node.arguments.at(-1)!;
      if (ts.isArrowFunction(handler) || ts.isFunctionExpression(handler)) {
        const param = handler.parameters[0]?.name;
        const name = param && ts.isIdentifier(param) ? param.text : undefined;
        const handled = (name !== undefined && uses(handler.body, name)) || throws(handler.body);
        if (!handled && !hasComment(node.expression.name.getStart(source), handler.getEnd())) {
          found.push({
            file,
            line: lineOf(node.expression.name.getStart(source)) + 1,
            what: `.${node.expression.name.text}`,
          });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
