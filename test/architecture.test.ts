// The folders of src/ form layers without cycles, type imports included; the Agents SDK's
// internals are touched only in src/sdk/; module-level mutable state is a short, commented list.
// Checked from the source with the TypeScript parser (test/support/importGraph.ts and
// sourceRules.ts), so the test needs no extra tooling.
import * as agentsCore from '@openai/agents-core';
import * as agentsOpenai from '@openai/agents-openai';
import { readdirSync } from 'node:fs';
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
import { moduleState, sdkInternalUses, silentCatches, sourceFiles } from './support/sourceRules.js';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

/**
 * base files → sdk → models (the project config, `colloquy.yaml`, included), stores → threads →
 * files, agency, ensembles → demo → server, testing → cli → entry points (lower ranks are imported
 * by higher ones). A top-level file of src/ is either a base file (rank 0) or an entry point
 * (rank 7): one that needs a folder lives in that folder.
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
    'usage.ts': 0, // the one usage type (agency, ensembles, traces)
    'runtime.ts': 0, // the runtime's state container: each layer declares its own slots in it
    'asyncContext.ts': 0, // the one AsyncLocalStorage: each layer declares its own slot in it
    schedules: 0.5, // what a schedule is and when it ticks: read by the project config (models)
    sdk: 0.5, // the one door to the Agents SDK's internals: beside models/stores, under all users
    models: 1,
    stores: 1,
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
    'logger.ts -> runtime.ts', // the default logger is a slot of the default runtime
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

  it('keeps top-level files at the base layer or as entry points (config.ts lives in models)', () => {
    const topLevel = readdirSync(src).filter((name) => name.endsWith('.ts'));
    const between = topLevel.filter((name) => RULES.ranks[name] !== 0 && RULES.ranks[name] !== 7);
    expect(between).toEqual([]);
    expect(topLevel).not.toContain('config.ts');
  });

  it('keeps every allowance in use, so stale ones are removed', () => {
    const used = new Set(edges.map((e) => `${e.from} -> ${e.to}`));
    expect(RULES.allowed.filter((rule) => !used.has(rule))).toEqual([]);
  });
});

/** Executors: they throw domain errors (src/errors.ts); server/errors.ts gives them a status. */
const EXECUTORS = (file: string): boolean =>
  file.startsWith('queue/') ||
  file === 'server/ensembleRuns.ts' ||
  file === 'server/executor.ts' ||
  file === 'server/schedules/localSchedules.ts';

describe('where each concern lives', () => {
  const files = sourceFiles(src);
  const uses = (pattern: RegExp, which: (file: string) => boolean): string[] =>
    files
      .filter(({ file, source }) => which(file) && pattern.test(source.text))
      .map(({ file }) => `src/${file}`);

  it('executors throw domain errors, never HttpError', () => {
    expect(uses(/\bHttpError\b/, EXECUTORS)).toEqual([]);
  });

  it('imports a CLI command module only from cli/main.ts (shared parts live beside them)', () => {
    const commands = new Set(
      files
        .filter(
          ({ file, source }) =>
            file.startsWith('cli/') && /export function register\w*Command\b/.test(source.text),
        )
        .map(({ file }) => file),
    );
    expect(commands).toContain('cli/commands/worker.ts');
    const crossings = files.flatMap(({ file, source }) =>
      importSpecifiers(file, source.text)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) =>
          path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, '.ts'),
        )
        .filter((target) => commands.has(target) && target !== file && file !== 'cli/main.ts')
        .map((target) => `src/${file} imports src/${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it('keeps every module under 400 lines (split one that grows past it by concern)', () => {
    const long = files
      .map(({ file, source }) => ({ file, lines: source.getLineStarts().length }))
      .filter(({ lines }) => lines > 400)
      .map(({ file, lines }) => `src/${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it("only ensembles read their runs' storage format (ask ensembles/savedRuns.ts)", () => {
    const storageFormat = /kind\s*[!=]==?\s*'workflow'|'workflow'\s*[!=]==?|metadata\.workflow\b/;
    expect(uses(storageFormat, (file) => !file.startsWith('ensembles/'))).toEqual([]);
    expect(uses(storageFormat, (file) => file === 'ensembles/savedRuns.ts')).not.toEqual([]);
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

/** Class names the SDK packages export that a `constructor.name` check would compare with. */
const SDK_CLASS_NAMES = new Set(
  [...Object.keys(agentsCore), ...Object.keys(agentsOpenai)].filter((name) =>
    /^[A-Z]\w*(Model|Processor|Exporter|Provider)$/.test(name),
  ),
);
const SDK_RULES = {
  allowedUnderscoreMembers: ['_meta', '__esModule'],
  sdkClassNames: SDK_CLASS_NAMES,
};

describe('the Agents SDK behind one door (src/sdk/)', () => {
  const files = sourceFiles(src);

  it('reads internals (underscore members, deep imports, class-name checks) only in src/sdk/', () => {
    const outside = files
      .filter(({ file }) => !file.startsWith('sdk/'))
      .flatMap(({ file, source }) => sdkInternalUses(file, source, SDK_RULES))
      .map((use) => `src/${use.file}:${use.line} ${use.what} (move it into src/sdk/)`);
    expect(outside).toEqual([]);
  });

  it('finds the internals src/sdk/ does read (so the check is not blind)', () => {
    const inside = files
      .filter(({ file }) => file.startsWith('sdk/'))
      .flatMap(({ file, source }) => sdkInternalUses(file, source, SDK_RULES))
      .map((use) => use.what);
    expect(inside).toEqual(
      expect.arrayContaining(['member _context', 'member _internal', 'member _response']),
    );
    expect(inside.some((what) => what.includes('agentToolRunResults'))).toBe(true);
  });

  it('catches each form of access', async () => {
    const ts = (await import('typescript')).default;
    const text = [
      'state._context;',
      "request['_internal'];",
      "import('@openai/agents-core/dist/agentToolRunResults.mjs');",
      "model.constructor.name === 'OpenAIResponsesModel';",
      "import('@openai/agents-extensions/ai-sdk');", // an exported subpath: public
      'extra._meta;',
    ].join('\n');
    const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, true);
    expect(sdkInternalUses('x.ts', source, SDK_RULES).map((use) => use.what)).toEqual([
      'member _context',
      'member _internal',
      'deep import @openai/agents-core/dist/agentToolRunResults.mjs',
      "SDK class name 'OpenAIResponsesModel'",
    ]);
  });
});

/**
 * The module-level mutable state src/ may keep (`file:binding`; `file:globalThis` for a write to
 * globalThis). Anything else fails: put new state on the object it belongs to (an Agency, a
 * store, a server) or in a slot of the runtime (`src/runtime.ts`, `defineRuntimeSlot`), which
 * `Agency`, `runEnsemble` and `createApp` receive. Each entry says why it cannot be elsewhere.
 * (Session 8: 35 entries before the runtime, 12 after.)
 */
const MODULE_STATE: Record<string, string> = {
  // The one process-wide object: every copy of colloquy in a process (the CLI's and a user
  // module's) must find the same logger and tracing recorder, as they share the SDK's provider.
  'runtime.ts:globalThis': 'the default runtime, shared by every copy of colloquy in a process',
  // Async context: the SDK calls our models and tools, so nothing of ours is on the stack to pass
  // the call along; only an AsyncLocalStorage follows it across SDK calls.
  // One AsyncLocalStorage for all of them (each one in use costs on every promise); its slots are
  // the agency call's scope, the attempt listener, the lease fences, the user, the eval case model.
  'asyncContext.ts:storage': 'async context: the slots each layer declares with contextSlot',
  // Weakly keyed by objects the SDK or the user owns, which we must not add fields to.
  'agency/call.ts:frames': 'the frame of each running call, weakly keyed by its SDK RunContext',
  'models/pricing.ts:attached': 'prices attached to user or profile Model objects, weakly keyed',
  'stores/traceStores.ts:linked': 'trace stores linked to user thread stores, weakly keyed',
  'stores/traceStores.ts:delegates': 'user thread stores that delegate their traces, weakly keyed',
  'ensembles/tracing.ts:openAgents': 'open ensemble agent spans across nested runs',
  // A module import, not application state.
  'schedules/timing.ts:parser': 'cron-parser, imported once on first use (optional peer)',
};

describe('module-level mutable state', () => {
  const found = sourceFiles(src).flatMap(({ file, source }) => moduleState(file, source));

  it('is only the allow-listed state', () => {
    const extra = [...new Set(found.map((state) => state.what))].filter(
      (what) => !(what in MODULE_STATE),
    );
    expect(extra).toEqual([]);
  });

  it('keeps no stale allowance', () => {
    const present = new Set(found.map((state) => state.what));
    expect(Object.keys(MODULE_STATE).filter((what) => !present.has(what))).toEqual([]);
  });

  it('finds let, empty collections, AsyncLocalStorage and globalThis writes', async () => {
    const ts = (await import('typescript')).default;
    const text = [
      'let count = 0;',
      'const cache = new Map();',
      "const TABLE = new Set(['a']);", // filled at creation: a lookup table
      'const storage = new AsyncLocalStorage();',
      'const holder = globalThis as { x?: number };',
      'export function f() { holder.x = 1; (globalThis as any).y = 2; let local = 1; }',
    ].join('\n');
    const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, true);
    expect(moduleState('x.ts', source).map((state) => state.what)).toEqual([
      'x.ts:count',
      'x.ts:cache',
      'x.ts:storage',
      'x.ts:globalThis',
      'x.ts:globalThis',
    ]);
  });
});

describe('errors that are dropped say why', () => {
  it('has no catch that ignores its error without a comment, a log or a rethrow', () => {
    const silent = sourceFiles(src).flatMap(({ file, source }) => silentCatches(file, source));
    expect(silent.map(({ file, line, what }) => `src/${file}:${line} ${what}`)).toEqual([]);
  });

  it('finds catch blocks and .catch handlers that drop the error silently', async () => {
    const ts = (await import('typescript')).default;
    const text = [
      'try { a(); } catch { return 1; }', // 1: silent
      'try { a(); } catch (error) { log(error); }', // used
      'try { a(); } catch { throw new Error("b"); }', // rethrown
      'try { a(); } catch {', // commented
      '  // Not there: the default applies.',
      '  return 2;',
      '}',
      'p.catch(() => undefined);', // 8: silent
      'p.catch((e) => e);', // used
      'p.catch(() => undefined); // closing: already gone',
      'b();',
      'c();',
      "emitter.on('error', () => undefined);", // 13: silent
    ].join('\n');
    const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, true);
    expect(silentCatches('x.ts', source).map(({ line, what }) => `${line} ${what}`)).toEqual([
      '1 catch',
      '8 .catch',
      '13 .on',
    ]);
  });
});
