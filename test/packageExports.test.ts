// The package as a consumer meets it: built with the build's tsconfig into a temp package whose
// node_modules lacks the optional drivers, then every `exports` subpath imported by name
// ('colloquy/...', resolved through package.json as Node resolves it for an installed copy).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = (await import('../package.json', { with: { type: 'json' } })).default as {
  exports: Record<string, string | { types: string; default: string }>;
  dependencies: Record<string, string>;
};
/** Optional peers left out of the temp package's node_modules. */
const ABSENT = new Set(['pg', 'redis', 'ioredis', 'bullmq', 'tsx']);
/** Subpaths that need an absent peer, and the install line their import must name. */
const NEEDS: Record<string, string> = {
  './postgres': 'npm install pg',
  './redis': 'npm install redis',
  './queue': 'npm install bullmq ioredis',
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'colloquy-exports-'));
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', `${dir}/dist`], {
    cwd: root,
  });
  copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(root, 'node_modules')))
    if (!ABSENT.has(name) && !name.startsWith('.'))
      symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name));
}, 240_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Imports `specifier` in a fresh Node from inside the temp package; its error message, or ''. */
function importError(specifier: string): string {
  const run = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `try { await import(${JSON.stringify(specifier)}); } catch (e) { console.log(e.message); }`,
    ],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, COLLOQUY_TRACING: 'off' } },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
}

describe('package.json exports', () => {
  const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json');

  it('map every subpath to a built file and its types', () => {
    expect(subpaths.length).toBeGreaterThanOrEqual(13);
    for (const key of subpaths) {
      const target = pkg.exports[key] as { types: string; default: string };
      expect(existsSync(path.join(dir, target.default)), target.default).toBe(true);
      expect(existsSync(path.join(dir, target.types)), target.types).toBe(true);
    }
  });

  it('resolve and import by name without the optional drivers', () => {
    const failures: string[] = [];
    for (const key of subpaths.filter((k) => !(k in NEEDS))) {
      const specifier = key === '.' ? 'colloquy' : `colloquy${key.slice(1)}`;
      const message = importError(specifier);
      if (message) failures.push(`${specifier}: ${message}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('publish types that name only typed dependencies: skipLibCheck: false needs nothing more', () => {
    // Every .d.ts reachable from the entries without a driver, and the packages they import.
    const seen = new Set<string>();
    const packages = new Map<string, string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const [, specifier] of text.matchAll(/(?:from|import\()\s*'([^']+)'/g)) {
        if (specifier!.startsWith('.')) {
          visit(path.resolve(path.dirname(file), specifier!.replace(/\.js$/, '.d.ts')));
        } else if (!specifier!.startsWith('node:')) {
          const name = specifier!
            .split('/')
            .slice(0, specifier!.startsWith('@') ? 2 : 1)
            .join('/');
          packages.set(name, path.relative(dir, file));
        }
      }
    };
    for (const key of subpaths.filter((k) => !(k in NEEDS)))
      visit(path.join(dir, (pkg.exports[key] as { types: string }).types));
    /** Whether an installed package ships its own types (else it needs @types/NAME). */
    const typed = (name: string): boolean => {
      const manifest = JSON.parse(
        readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'),
      ) as Record<string, unknown>;
      return (
        Boolean(manifest.types ?? manifest.typings) ||
        JSON.stringify(manifest.exports ?? '').includes('"types"')
      );
    };
    const undeclared = [...packages].filter(
      ([name]) => name !== 'colloquy' && (!(name in pkg.dependencies) || !typed(name)),
    );
    expect(undeclared.map(([name, file]) => `${name} (${file})`)).toEqual([]);
  });

  it('name the npm install line when a subpath needs a missing driver', () => {
    for (const [key, line] of Object.entries(NEEDS)) {
      const message = importError(`colloquy${key.slice(1)}`);
      expect(message, key).toContain('optional peer dependency that is not installed');
      expect(message, key).toMatch(new RegExp(`${line}$`));
    }
  }, 60_000);
});
