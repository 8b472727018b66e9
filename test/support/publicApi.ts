/**
 * Reads the public API with the TypeScript compiler: every name the entry points export, and
 * the problems a newcomer would meet (a parameter/return type that is not exported, an export
 * without TSDoc, `export *`). Used by `test/index.test.ts`.
 * @module
 */
import path from 'node:path';
import ts from 'typescript';

/** The package's entry points (`.` and the subpaths), relative to the repository root. */
export const ENTRY_POINTS = [
  'src/index.ts',
  'src/testing.ts',
  'src/redis.ts',
  'src/postgres.ts',
  'src/server/index.ts',
  'src/queue.ts',
  'src/agency.ts',
  'src/stores.ts',
  'src/models.ts',
  'src/tracing.ts',
  'src/files.ts',
  'src/ensembles.ts',
  'src/llmOrc.ts',
  'src/evals.ts',
  'src/memory.ts',
  'src/client.ts',
];

/** What {@link readPublicApi} found. */
export interface PublicApi {
  /** Exported names by entry point. */
  exports: Map<string, string[]>;
  /** `entry: name` of exports whose declaration has no TSDoc comment. */
  undocumented: string[];
  /** `export *` statements, as `entry`. */
  starExports: string[];
  /**
   * Types declared in `src/` that an exported function, class (constructor, public method or
   * property), interface or type alias uses but no entry point exports, as `TypeName (used by entry: name)`.
   */
  unexportedTypes: string[];
}

function hasDoc(node: ts.Node, sourceFile: ts.SourceFile): boolean {
  const target = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const ranges = ts.getLeadingCommentRanges(sourceFile.text, target.getFullStart()) ?? [];
  return ranges.some((r) => sourceFile.text.slice(r.pos, r.pos + 3) === '/**');
}

/** Compiles `src/` and reads the API of the entry points under `root`. */
export function readPublicApi(root: string): PublicApi {
  const entries = ENTRY_POINTS.map((entry) => path.join(root, entry));
  const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  const program = ts.createProgram(entries, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const srcDir = path.join(root, 'src') + path.sep;

  const api: PublicApi = {
    exports: new Map(),
    undocumented: [],
    starExports: [],
    unexportedTypes: [],
  };
  const exportedDecls = new Set<ts.Declaration>();
  const uses: Array<{ decl: ts.Declaration; name: string; user: string }> = [];

  /**
   * Whether `decl` only renames a type declared outside `src/` (`type Pool = pgTypes.Pool`, as
   * the optional drivers' modules do): users meet the package's own type, not ours to export.
   */
  const aliasesOutside = (decl: ts.Declaration): boolean => {
    if (!ts.isTypeAliasDeclaration(decl) || !ts.isTypeReferenceNode(decl.type)) return false;
    const name = decl.type.typeName;
    let target = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name);
    if (target && target.flags & ts.SymbolFlags.Alias) target = checker.getAliasedSymbol(target);
    const decls = target?.declarations ?? [];
    return decls.length > 0 && decls.every((d) => !d.getSourceFile().fileName.startsWith(srcDir));
  };

  const collectTypes = (node: ts.Node | undefined, user: string): void => {
    if (!node) return;
    const visit = (n: ts.Node): void => {
      if (ts.isTypeReferenceNode(n) || ts.isExpressionWithTypeArguments(n)) {
        const target = ts.isTypeReferenceNode(n) ? n.typeName : n.expression;
        let symbol = checker.getSymbolAtLocation(target);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias)
          symbol = checker.getAliasedSymbol(symbol);
        for (const decl of symbol?.declarations ?? []) {
          if (ts.isTypeParameterDeclaration(decl)) continue;
          if (!decl.getSourceFile().fileName.startsWith(srcDir)) continue;
          if (symbol!.declarations!.some(aliasesOutside)) continue;
          uses.push({ decl, name: symbol!.name, user });
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
  };

  const collectSignature = (
    decl: ts.SignatureDeclaration | ts.ClassDeclaration,
    user: string,
  ): void => {
    if (ts.isClassDeclaration(decl)) {
      for (const member of decl.members) {
        const modifiers = ts.getCombinedModifierFlags(member);
        if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
        if (member.name && ts.isPrivateIdentifier(member.name)) continue;
        if (ts.isConstructorDeclaration(member) || ts.isMethodDeclaration(member)) {
          collectSignature(member, user);
        } else if (ts.isPropertyDeclaration(member) || ts.isGetAccessorDeclaration(member)) {
          collectTypes(member.type, user);
        }
      }
      return;
    }
    for (const parameter of decl.parameters) collectTypes(parameter.type, user);
    collectTypes(decl.type, user);
  };

  for (const entry of entries) {
    const sourceFile = program.getSourceFile(entry);
    if (!sourceFile) throw new Error(`Entry point ${entry} is not part of the program.`);
    const relative = path.relative(root, entry);
    for (const statement of sourceFile.statements) {
      if (ts.isExportDeclaration(statement) && !statement.exportClause) {
        api.starExports.push(relative);
      }
    }
    const moduleSymbol = checker.getSymbolAtLocation(sourceFile)!;
    const names: string[] = [];
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      names.push(exported.name);
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const decls = symbol.declarations ?? [];
      for (const decl of decls) exportedDecls.add(decl);
      const user = `${relative}: ${exported.name}`;
      if (!decls.some((decl) => hasDoc(decl, decl.getSourceFile()))) api.undocumented.push(user);
      for (const decl of decls) {
        if (ts.isFunctionDeclaration(decl) || ts.isClassDeclaration(decl)) {
          collectSignature(decl, user);
        } else if (ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl)) {
          collectTypes(decl, user);
        } else if (ts.isVariableDeclaration(decl) && decl.initializer) {
          const init = decl.initializer;
          if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) {
            collectSignature(init, user);
          }
        }
      }
    }
    api.exports.set(relative, names.sort());
  }

  const missing = new Map<string, string>();
  for (const { decl, name, user } of uses) {
    if (exportedDecls.has(decl) || missing.has(name)) continue;
    missing.set(name, `${name} (used by ${user})`);
  }
  api.unexportedTypes = [...missing.values()].sort();
  return api;
}
