import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findModuleFile, MODULE_EXTENSIONS } from '../src/paths.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'colloquy-paths-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('findModuleFile', () => {
  it('finds a file named exactly as written first', () => {
    writeFileSync(path.join(dir, 'agency.js'), '');
    writeFileSync(path.join(dir, 'agency.js.ts'), '');
    expect(findModuleFile(path.join(dir, 'agency.js')).found).toBe(path.join(dir, 'agency.js'));
  });

  it('tries the extensions in order', () => {
    writeFileSync(path.join(dir, 'agency.mjs'), '');
    writeFileSync(path.join(dir, 'agency.js'), '');
    expect(findModuleFile(path.join(dir, 'agency')).found).toBe(path.join(dir, 'agency.js'));
    writeFileSync(path.join(dir, 'agency.ts'), '');
    expect(findModuleFile(path.join(dir, 'agency')).found).toBe(path.join(dir, 'agency.ts'));
  });

  it("uses a folder's index file, skipping the folder itself", () => {
    mkdirSync(path.join(dir, 'team'));
    writeFileSync(path.join(dir, 'team', 'index.mjs'), '');
    const { found, candidates } = findModuleFile(path.join(dir, 'team'));
    expect(found).toBe(path.join(dir, 'team', 'index.mjs'));
    expect(candidates).toContain(path.join(dir, 'team'));
  });

  it('returns every candidate it tried when none is a file', () => {
    const base = path.join(dir, 'missing');
    const { found, candidates } = findModuleFile(base);
    expect(found).toBeUndefined();
    expect(candidates).toHaveLength(MODULE_EXTENSIONS.length * 2 - 1);
    expect(candidates[0]).toBe(base);
    expect(candidates).toContain(path.join(base, 'index.ts'));
    expect(candidates).not.toContain(path.join(base, 'index'));
  });
});
