import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DirectoryEnsembleCatalog } from '../../src/server/ensembleCatalog.js';

const good = (name: string) => `name: ${name}\nagents:\n  - name: a\n    script: echo '{}'\n`;

describe('DirectoryEnsembleCatalog.findByEnsembleName', () => {
  it('finds an ensemble whose name differs from its file, past a broken file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    writeFileSync(join(dir, 'broken.yaml'), 'name: [unclosed\n');
    writeFileSync(join(dir, 'file-name.yaml'), good('review'));
    const catalog = new DirectoryEnsembleCatalog({ dir });
    expect((await catalog.findByEnsembleName('review'))?.name).toBe('review');
    expect(await catalog.findByEnsembleName('absent')).toBeNull();
  });

  it('reports the YAML error of the file of that very name instead of "not found"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    writeFileSync(join(dir, 'review.yaml'), 'name: [unclosed\n');
    const catalog = new DirectoryEnsembleCatalog({ dir });
    await expect(catalog.findByEnsembleName('review')).rejects.toThrow(/review\.yaml/);
  });
});
