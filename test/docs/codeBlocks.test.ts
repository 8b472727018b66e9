/**
 * Every TypeScript code block in `docs/` and the README is compiled against the package's public
 * entry points, so a renamed export or a changed option breaks this test, not a reader's build.
 * Blocks import from `colloquy` and its subpaths only (the published names); the compiler maps
 * each subpath to its source entry through the package's `exports`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { extractTypeScriptBlocks, type CodeBlock } from '../support/docBlocks.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `colloquy/<subpath>` → the source file its `exports` entry is built from. */
function publicPaths(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string' || !target.types) continue;
    const source = target.types.replace('./dist/', './src/').replace(/\.d\.ts$/, '.ts');
    paths[subpath === '.' ? 'colloquy' : `colloquy/${subpath.slice(2)}`] = [join(root, source)];
  }
  return paths;
}

function allBlocks(): CodeBlock[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', ...docs].flatMap((file) =>
    extractTypeScriptBlocks(file, readFileSync(join(root, file), 'utf8')),
  );
}

describe('docs code blocks', () => {
  const blocks = allBlocks();

  it('finds the blocks (a broken extractor must not pass by finding none)', () => {
    expect(blocks.length).toBeGreaterThan(20);
  });

  it('import only from colloquy, its subpaths or third-party packages, never ./src', () => {
    const local = blocks.filter((block) => /from\s+['"]\.\.?\//.test(block.code));
    expect(local.map((block) => `${block.file}:${block.line}`)).toEqual([]);
  });

  it('type-check against the public entry points', () => {
    const virtual = new Map(
      blocks.map((block, index) => [join(root, '.docblocks', `block${index}.ts`), block]),
    );
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      // Blocks are independent modules: top-level names may repeat across them.
      moduleDetection: ts.ModuleDetectionKind.Force,
      paths: publicPaths(),
    };
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.fileExists = (file) => virtual.has(file) || fileExists(file);
    const sourceOf = (block: CodeBlock): string => `${block.context}\n${block.code}`;
    host.readFile = (file) => {
      const block = virtual.get(file);
      return block ? sourceOf(block) : readFile(file);
    };
    host.getSourceFile = (file, language) => {
      const block = virtual.get(file);
      return block
        ? ts.createSourceFile(file, sourceOf(block), language, true, ts.ScriptKind.TS)
        : getSourceFile(file, language);
    };
    const program = ts.createProgram([...virtual.keys()], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file && virtual.has(diagnostic.file.fileName))
      .map((diagnostic) => {
        const block = virtual.get(diagnostic.file!.fileName)!;
        const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
        // Line 0 of the source is the hidden context (one or more lines) then a newline.
        const codeLine = line - block.context.split('\n').length;
        const where = codeLine < 0 ? 'context' : String(block.line + codeLine + 1);
        return `${block.file}:${where}: ${text}`;
      });
    expect(problems).toEqual([]);
  }, 120_000);
});
