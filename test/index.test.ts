// The public API as a newcomer meets it: one layer (src/index.ts and the subpaths), every export
// documented, every type a public function takes or returns exported, every documented import real.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_POINTS, readPublicApi, type PublicApi } from './support/publicApi.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUBPATHS: Record<string, string> = {
  colloquy: 'src/index.ts',
  'colloquy/testing': 'src/testing.ts',
  'colloquy/redis': 'src/redis.ts',
  'colloquy/postgres': 'src/postgres.ts',
  'colloquy/server': 'src/server/index.ts',
  'colloquy/queue': 'src/queue.ts',
  'colloquy/agency': 'src/agency.ts',
  'colloquy/stores': 'src/stores.ts',
  'colloquy/models': 'src/models.ts',
  'colloquy/tracing': 'src/tracing.ts',
  'colloquy/files': 'src/files.ts',
  'colloquy/ensembles': 'src/ensembles.ts',
  'colloquy/llm-orc': 'src/llmOrc.ts',
  'colloquy/evals': 'src/evals.ts',
  'colloquy/memory': 'src/memory.ts',
  'colloquy/client': 'src/client.ts',
};

/** `{ names, from }` of every `import { … } from 'colloquy…'` in the README and docs. */
function documentedImports(): Array<{ file: string; from: string; names: string[] }> {
  const files = [
    'README.md',
    ...readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const found: Array<{ file: string; from: string; names: string[] }> = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const match of text.matchAll(
      /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(colloquy[^']*)'/g,
    )) {
      const names = match[1]!
        .split(',')
        .map(
          (n) =>
            n
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0]!,
        )
        .filter(Boolean);
      found.push({ file, from: match[2]!, names });
    }
  }
  return found;
}

describe('the public API', () => {
  let api: PublicApi;
  beforeAll(() => {
    api = readPublicApi(root);
  }, 120_000);

  it('is one layer: no index files below src/ other than the server subpath', () => {
    expect(existsSync(path.join(root, 'src/stores/index.ts'))).toBe(false);
    expect(existsSync(path.join(root, 'src/ensembles/index.ts'))).toBe(false);
    const entries = new Set(ENTRY_POINTS);
    const indexes = readdirSync(path.join(root, 'src'), { recursive: true })
      .map(String)
      .filter((f) => path.basename(f) === 'index.ts')
      .map((f) => `src/${f.split(path.sep).join('/')}`);
    expect(indexes.filter((f) => !entries.has(f))).toEqual([]);
  });

  it('keeps the root to what an application writes every day: at most 80 names', () => {
    const rootNames = api.exports.get('src/index.ts')!;
    expect(rootNames.length).toBeLessThanOrEqual(80);
    for (const name of [
      'Agency',
      'Agent',
      'ThreadManager',
      'MemoryStore',
      'SqliteStore',
      'JsonFileStore',
      'CallbackStore',
      'tool',
      'ColloquyError',
      'AgencyStreamEvent',
      'AgencyOptions',
    ])
      expect(rootNames, name).toContain(name);
    // Store internals, ensembles, llm-orc and tracing live in their subpaths.
    for (const name of ['checkFork', 'runEnsemble', 'llmOrcPrompt', 'setupTracing', 'Span'])
      expect(rootNames, name).not.toContain(name);
  });

  it('names a position range so that it cannot be taken for a tracing span', () => {
    const all = [...api.exports.values()].flat();
    expect(all).not.toContain('Span');
    expect(api.exports.get('src/stores.ts')).toContain('PositionRange');
  });

  it('exports by name: no export *', () => {
    expect(api.starExports).toEqual([]);
  });

  it('documents every export with TSDoc', () => {
    expect(api.undocumented).toEqual([]);
  });

  it('exports every type a public function, class or type takes or returns', () => {
    expect(api.unexportedTypes).toEqual([]);
  });

  it('exports the option types of the public functions named in the issue', () => {
    const main = [...api.exports.values()].flat();
    for (const name of [
      'FallbackModelOptions',
      'CassetteOptions',
      'LoadEnsembleOptions',
      'ScriptAgentOptions',
      'TtyInputHandlerOptions',
      'ColloquyRetryPolicyOptions',
    ]) {
      expect(main, name).toContain(name);
    }
    expect(main).not.toContain('createDemoAgency');
    expect(api.exports.get('src/index.ts')).toContain('Agency');
  });

  it('makes every name the README and docs import reachable from its entry point', () => {
    const imports = documentedImports();
    expect(imports.length).toBeGreaterThan(3);
    const missing: string[] = [];
    for (const { file, from, names } of imports) {
      const entry = SUBPATHS[from];
      if (!entry) {
        missing.push(`${file}: no entry point '${from}'`);
        continue;
      }
      const exported = new Set(api.exports.get(entry));
      for (const name of names)
        if (!exported.has(name)) missing.push(`${file}: ${name} from '${from}'`);
    }
    expect(missing).toEqual([]);
  });

  it('keeps the package.json exports map and the entry points in step', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const mapped = Object.entries(pkg.exports as Record<string, { types?: string }>)
      .filter(([key]) => key !== './package.json')
      .map(([key, value]) => [
        key === '.' ? 'colloquy' : `colloquy/${key.slice(2)}`,
        value.types!.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'),
      ]);
    expect(Object.fromEntries(mapped)).toEqual(SUBPATHS);
  });
});
