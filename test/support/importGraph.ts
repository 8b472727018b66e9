/**
 * The folder-level import graph of `src/`, read with the TypeScript compiler's parser: static
 * imports and re-exports (type-only ones included), dynamic `import()` and `import('…')` types.
 * Used by `test/architecture.test.ts`.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import of a file in another folder: `from` and `to` are folders, `file` the importer. */
export interface FolderEdge {
  from: string;
  to: string;
  file: string;
  specifier: string;
}

/** The folder of a path relative to `src/`: its first segment, or the file itself for base files. */
export function folderOf(relative: string): string {
  const parts = relative.split(/[\\/]/);
  return parts.length > 1 ? parts[0]! : parts[0]!;
}

/** Every module specifier a source text imports, type-only and dynamic ones included. */
export function importSpecifiers(fileName: string, text: string): string[] {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) found.push(expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** The cross-folder imports of every `.ts` file under `srcDir`. */
export function folderEdges(srcDir: string): FolderEdge[] {
  const files = readdirSync(srcDir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts'));
  const edges: FolderEdge[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(srcDir, file), 'utf8');
    for (const specifier of importSpecifiers(file, text)) {
      if (!specifier.startsWith('.')) continue;
      const target = path.relative(srcDir, path.resolve(srcDir, path.dirname(file), specifier));
      if (target.startsWith('..')) {
        throw new Error(
          `src/${file} imports ${specifier}, outside src/. Move that code into src/.`,
        );
      }
      const from = folderOf(file);
      const to = folderOf(target.replace(/\.js$/, '.ts'));
      if (from !== to) edges.push({ from, to, file: `src/${file}`, specifier });
    }
  }
  return edges;
}

/** The cycles of a directed graph (one per strongly connected component of 2+ nodes). */
export function findCycles(edges: ReadonlyArray<{ from: string; to: string }>): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    next.get(from)!.add(to);
  }
  // Tarjan's strongly connected components.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string): void => {
    order.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node)!) {
      if (!order.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, order.get(target)!));
      }
    }
    if (low.get(node) === order.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!order.has(node)) connect(node);
  return cycles;
}

/** The layering rules: a folder imports folders of a lower rank, or of its rank when allowed. */
export interface LayerRules {
  /** Rank of each folder (base files by file name, e.g. `errors.ts`). */
  ranks: Record<string, number>;
  /** Same-rank edges that are allowed, as `from -> to`. */
  allowed: string[];
  /** Folders only the listed folders may import. */
  onlyImportedBy: Record<string, string[]>;
}

/** The edges that break `rules`, as `from -> to (file imports specifier)`; unknown folders too. */
export function layerViolations(edges: readonly FolderEdge[], rules: LayerRules): string[] {
  const problems = new Set<string>();
  for (const edge of edges) {
    const where = `${edge.from} -> ${edge.to} (${edge.file} imports ${edge.specifier})`;
    const from = rules.ranks[edge.from];
    const to = rules.ranks[edge.to];
    if (from === undefined || to === undefined) {
      problems.add(`unranked folder: ${where}; give it a rank in the layer rules`);
      continue;
    }
    const importers = rules.onlyImportedBy[edge.to];
    if (importers && !importers.includes(edge.from)) {
      problems.add(`only ${importers.join(', ')} may import ${edge.to}: ${where}`);
    }
    if (to > from) problems.add(`upward import: ${where}`);
    else if (to === from && !rules.allowed.includes(`${edge.from} -> ${edge.to}`)) {
      problems.add(`same-layer import: ${where}`);
    }
  }
  return [...problems].sort();
}
