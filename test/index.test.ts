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
    const main = api.exports.get('src/index.ts')!;
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
