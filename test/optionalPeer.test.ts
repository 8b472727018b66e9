import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/errors.js';
import {
  importOptionalPeer,
  installLine,
  isMissingPackage,
  OPTIONAL_PEERS,
  type OptionalPeer,
} from '../src/optionalPeer.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** An error shaped like Node's for a package that is not installed. */
function notFound(name: string): Error {
  return Object.assign(
    new Error(`Cannot find package '${name}' imported from /app/dist/stores/pgDriver.js`),
    { code: 'ERR_MODULE_NOT_FOUND' },
  );
}

describe('importOptionalPeer', () => {
  it('returns the module when it loads', async () => {
    await expect(importOptionalPeer('pg', async () => ({ ok: 1 }))).resolves.toEqual({ ok: 1 });
  });

  it('turns a missing package into a ConfigError naming the npm install line', async () => {
    const failing = importOptionalPeer('pg', () => Promise.reject(notFound('pg')));
    await expect(failing).rejects.toBeInstanceOf(ConfigError);
    await expect(failing).rejects.toThrow(
      /Postgres store \(colloquy\/postgres\) needs the package "pg".*Install it: npm install pg$/,
    );
    const queue = importOptionalPeer('bullmq', () => Promise.reject(notFound('bullmq')));
    await expect(queue).rejects.toThrow(/npm install bullmq ioredis$/);
  });

  it('rethrows other failures unchanged, a missing dependency of the peer included', async () => {
    const broken = new SyntaxError('Unexpected token');
    await expect(importOptionalPeer('pg', () => Promise.reject(broken))).rejects.toBe(broken);
    const inner = notFound('pg-pool');
    await expect(importOptionalPeer('pg', () => Promise.reject(inner))).rejects.toBe(inner);
  });

  it('recognises both module systems’ not-found errors, for that package only', () => {
    expect(isMissingPackage(notFound('tsx'), 'tsx')).toBe(true);
    const cjs = Object.assign(new Error("Cannot find module 'tsx'"), { code: 'MODULE_NOT_FOUND' });
    expect(isMissingPackage(cjs, 'tsx')).toBe(true);
    expect(isMissingPackage(notFound('tsx'), 'pg')).toBe(false);
    expect(isMissingPackage(new Error("Cannot find package 'tsx'"), 'tsx')).toBe(false);
  });
});

describe('the optional peers in package.json', () => {
  const names = Object.keys(OPTIONAL_PEERS) as OptionalPeer[];

  it('lists each as an optional peer and a devDependency, never a dependency', () => {
    for (const name of names) {
      expect(pkg.peerDependencies[name], name).toBeDefined();
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(pkg.devDependencies[name], name).toBeDefined();
      expect(pkg.dependencies[name], name).toBeUndefined();
    }
  });

  it('installs only optional peers with each line', () => {
    for (const name of names) {
      const line = installLine(name);
      expect(line).toMatch(/^npm install /);
      for (const part of line.split(' ').slice(2)) expect(names, line).toContain(part);
    }
  });

  it('keeps @types packages out of the dependencies', () => {
    expect(Object.keys(pkg.dependencies).filter((name) => name.startsWith('@types/'))).toEqual([]);
  });
});
