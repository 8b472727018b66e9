import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent as SdkAgent } from '@openai/agents-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isAgencyLike,
  loadAgencyModule,
  parseModuleSpecifier,
  resolveModuleFile,
} from '../../src/cli/loadModule.js';
import { ConfigError } from '../../src/errors.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INDEX = path.join(ROOT, 'src', 'index.ts');
const MODELS = path.join(ROOT, 'src', 'models.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-load-module-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a TypeScript module exporting agencies, importing Colloquy from the source tree. */
function writeModule(name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    `import { Agency, Agent } from ${JSON.stringify(INDEX)};\n` +
      `import { ScriptedModel } from ${JSON.stringify(MODELS)};\n` +
      `const agent = (name: string): Agent => new Agent({ name, instructions: 'x', model: new ScriptedModel(() => 'hi') });\n` +
      body,
  );
  return file;
}

describe('parseModuleSpecifier', () => {
  it('splits MODULE#export and keeps a bare module whole', () => {
    expect(parseModuleSpecifier('./a.ts#support')).toEqual({
      module: './a.ts',
      exportName: 'support',
    });
    expect(parseModuleSpecifier('./a.ts')).toEqual({ module: './a.ts' });
    expect(parseModuleSpecifier('./a.ts#')).toEqual({ module: './a.ts' });
  });
});

describe('resolveModuleFile', () => {
  it('adds an extension and finds a folder index; names the fix when nothing matches', () => {
    const file = writeModule('resolve.ts', 'export const a = 1;\n');
    expect(resolveModuleFile('resolve', dir)).toBe(file);
    expect(() => resolveModuleFile('nope', dir)).toThrow(/names no file.*colloquy chat/);
  });
});

describe('loadAgencyModule', () => {
  it('loads the agencies of a .ts module by served name', async () => {
    writeModule(
      'two.ts',
      `export const support = new Agency({ entryPoints: [agent('A')] });\n` +
        `export default new Agency({ name: 'sales', entryPoints: [agent('B')] });\n` +
        `export const other = 42;\n`,
    );
    const loaded = await loadAgencyModule('./two.ts', { cwd: dir });
    expect(loaded.path).toBe(path.join(dir, 'two.ts'));
    expect(Object.keys(loaded.agencies).sort()).toEqual(['sales', 'support']);
    expect(loaded.exports.other).toBe(42);
  });

  it('selects one export with #, and lists the agency exports when the name is wrong', async () => {
    writeModule(
      'pick.ts',
      `export const a = new Agency({ name: 'alpha', entryPoints: [agent('A')] });\n` +
        `export const b = new Agency({ name: 'beta', entryPoints: [agent('B')] });\n`,
    );
    const loaded = await loadAgencyModule('pick.ts#b', { cwd: dir });
    expect(Object.keys(loaded.agencies)).toEqual(['beta']);
    await expect(loadAgencyModule('pick.ts#c', { cwd: dir })).rejects.toThrow(
      /no Agency export "c" \(its Agency exports: a, b\)/,
    );
  });

  it('caches by default and re-imports with fresh: true', async () => {
    writeModule('counter.ts', `export const agency = new Agency({ entryPoints: [agent('A')] });\n`);
    const first = await loadAgencyModule('counter.ts', { cwd: dir });
    const again = await loadAgencyModule('counter.ts', { cwd: dir });
    expect(again.agencies.agency).toBe(first.agencies.agency);
    writeModule(
      'counter.ts',
      `export const agency = new Agency({ name: 'renamed', entryPoints: [agent('A')] });\n`,
    );
    const fresh = await loadAgencyModule('counter.ts', { cwd: dir, fresh: true });
    expect(Object.keys(fresh.agencies)).toEqual(['renamed']);
  });

  it('shares the SDK instance with the host, except on a fresh (namespaced) reload', async () => {
    const sdk = path.join(ROOT, 'node_modules', '@openai', 'agents-core', 'dist', 'index.mjs');
    writeModule(
      'sdk.ts',
      `export { Agent as SdkAgent } from ${JSON.stringify(sdk)};\n` +
        `export const agency = new Agency({ entryPoints: [agent('A')] });\n`,
    );
    const shared = await loadAgencyModule('sdk.ts', { cwd: dir });
    // One copy: the module's SDK (and its global tracing provider) is the CLI's own.
    expect(shared.exports.SdkAgent).toBe(SdkAgent);
    const reloaded = await loadAgencyModule('sdk.ts', { cwd: dir, fresh: true });
    expect(reloaded.exports.SdkAgent).not.toBe(SdkAgent);
  });

  it('fails with a ConfigError for a module without agencies or with a syntax error', async () => {
    writeModule('none.ts', 'export const x = 1;\n');
    await expect(loadAgencyModule('none.ts', { cwd: dir })).rejects.toThrow(/exports no Agency/);
    writeFileSync(path.join(dir, 'broken.ts'), 'export const = ;\n');
    const error = await loadAgencyModule('broken.ts', { cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/Could not import the agency module .*broken\.ts/);
  });

  it('loads the delegation example without running its demo calls', async () => {
    const loaded = await loadAgencyModule(path.join(ROOT, 'examples/agency/delegation.ts'));
    expect(Object.keys(loaded.agencies)).toEqual(['delegation']);
    expect(isAgencyLike(loaded.agencies.delegation)).toBe(true);
    expect(isAgencyLike({ name: 'x' })).toBe(false);
  });
});
