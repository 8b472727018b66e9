// The folders of src/ form layers without cycles, type imports included. Checked from the source
// with the TypeScript parser (test/support/importGraph.ts), so the test needs no extra tooling.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  findCycles,
  folderEdges,
  importSpecifiers,
  layerViolations,
  type FolderEdge,
  type LayerRules,
} from './support/importGraph.js';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

/**
 * base files → models, stores → config.ts, threads → files, agency, ensembles → demo → server,
 * testing → cli → entry points (lower ranks are imported by higher ones). (`config.ts` sits above models: it loads a project's profiles,
 * while models never read the project config.)
 */
const RULES: LayerRules = {
  ranks: {
    'errors.ts': 0,
    'paths.ts': 0,
    'redact.ts': 0,
    'yamlErrors.ts': 0,
    'logger.ts': 0,
    'env.ts': 0, // every COLLOQUY_* variable, read in one place
    'defaults.ts': 0, // defaults applied by more than one module
    'optionalPeer.ts': 0, // imports an optional peer dependency or throws the npm install line
    schedules: 0.5, // what a schedule is and when it ticks: read by the project config (models)
    models: 1,
    stores: 1,
    'config.ts': 2,
    threads: 2,
    memory: 2.5, // recall, working memory, compaction: on stores and threads, used by agency
    tracing: 2, // spans and trace stores: used by agencies, ensembles and the CLI
    tools: 3, // tools from folders and OpenAPI documents, beside agency
    files: 3,
    agency: 3,
    ensembles: 3,
    demo: 4,
    evals: 4.5, // datasets, scorers, runEval, capture: run agencies and ensembles; used by testing and the CLI
    server: 5,
    queue: 5.5, // BullMQ workers and the queued executor: run server work, used by the CLI
    testing: 5,
    cli: 6,
    'index.ts': 7,
    'testing.ts': 7,
    'redis.ts': 7,
    'postgres.ts': 7,
    'queue.ts': 7,
    'agency.ts': 7, // the subpath entry points (package.json exports)
    'stores.ts': 7,
    'models.ts': 7,
    'tracing.ts': 7,
    'files.ts': 7,
    'ensembles.ts': 7,
    'llmOrc.ts': 7,
    'evals.ts': 7,
    'memory.ts': 7,
    'client.ts': 7, // colloquy/client: fetch only, imports nothing else from src
  },
  allowed: [
    'logger.ts -> redact.ts',
    'env.ts -> errors.ts', // a malformed variable is a ConfigError
    'paths.ts -> env.ts',
    'logger.ts -> env.ts',
    'yamlErrors.ts -> errors.ts',
    'optionalPeer.ts -> errors.ts', // the missing-peer error is a ConfigError
    'logger.ts -> optionalPeer.ts', // pino-pretty, when installed
    'agency -> files', // agents get file search
  ],
  onlyImportedBy: { demo: ['cli'] },
};

const edge = (from: string, to: string): FolderEdge => ({
  from,
  to,
  file: `src/${from}/x.ts`,
  specifier: `../${to}/y.js`,
});

describe('the layers of src/', () => {
  const edges = folderEdges(src);

  it('reads a real graph, type-only imports included', () => {
    expect(edges.length).toBeGreaterThan(50);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'threads', to: 'stores' }));
    const typeOnly = edges.filter((e) => e.file === 'src/agency/events.ts' && e.to === 'errors.ts');
    expect(typeOnly).not.toEqual([]); // `import type { ErrorInfo } from '../errors.js'`
  });

  it('has no folder-level cycle', () => {
    expect(findCycles(edges)).toEqual([]);
  });

  it('never imports from a higher layer (or sideways without an allowance)', () => {
    expect(layerViolations(edges, RULES)).toEqual([]);
  });

  it('keeps every allowance in use, so stale ones are removed', () => {
    const used = new Set(edges.map((e) => `${e.from} -> ${e.to}`));
    expect(RULES.allowed.filter((rule) => !used.has(rule))).toEqual([]);
  });
});

describe('the graph checks themselves', () => {
  it('find every import form: static, type-only, re-export, dynamic, import type', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "export type * from './d.js';",
      "const e = await import('./e.js');",
      "let f: import('./f.js').F;",
      "import g = require('./g.js');",
      "import 'node:fs';",
    ].join('\n');
    expect(importSpecifiers('x.ts', text)).toEqual([
      './a.js',
      '../b.js',
      './c.js',
      './d.js',
      './e.js',
      './f.js',
      './g.js',
      'node:fs',
    ]);
  });

  it('finds cycles, long and short', () => {
    expect(findCycles([edge('a', 'b'), edge('b', 'c')])).toEqual([]);
    expect(findCycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([
      ['a', 'b', 'c'],
    ]);
    expect(findCycles([edge('x', 'y'), edge('y', 'x')])).toEqual([['x', 'y']]);
  });

  it('reports upward, sideways, unranked and forbidden imports', () => {
    const problems = layerViolations(
      [
        edge('stores', 'threads'),
        edge('files', 'agency'),
        edge('server', 'demo'),
        edge('cli', 'demo'),
        edge('agency', 'nowhere'),
        edge('threads', 'stores'),
      ],
      RULES,
    );
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/upward import: stores -> threads/);
    expect(problems.join('\n')).toMatch(/same-layer import: files -> agency/);
    expect(problems.join('\n')).toMatch(/only cli may import demo: server -> demo/);
    expect(problems.join('\n')).toMatch(/unranked folder: agency -> nowhere/);
  });
});
