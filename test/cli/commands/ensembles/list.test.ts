import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, io, llmOrcProject } from './helpers.js';

describe('colloquy list-ensembles / list-profiles', () => {
  it('lists llm-orc ensembles recursively as folder/name with descriptions', async () => {
    const root = llmOrcProject();
    const deep = path.join(root, '.llm-orc', 'ensembles', 'a', 'b');
    mkdirSync(deep, { recursive: true });
    writeFileSync(
      path.join(deep, 'c.yaml'),
      'name: deep\ndescription: |\n  Deep one\n  more\nagents: []\n',
    );
    process.chdir(root);
    await cli('list-ensembles');
    expect(io.out).toMatch(/^a\/b\/deep\s+Deep one$/m);
    expect(io.out).toMatch(/^testing\/pipeline\s+Counts words, then a mock analyst comments$/m);
  });

  it('lists llm-orc profiles with where they came from', async () => {
    const root = llmOrcProject();
    process.chdir(root);
    await cli('lp');
    expect(io.out).toMatch(
      new RegExp(
        `^analyst\\s+ollama/mock-analyst\\s+${path.join(root, '.llm-orc', 'config.yaml')}$`,
        'm',
      ),
    );
  });
});

describe('list commands in an empty project', () => {
  it('say where they looked and how to add ensembles or profiles', async () => {
    const { tempDir } = await import('./helpers.js');
    process.chdir(tempDir());
    await cli('list-ensembles');
    expect(io.out).toMatch(
      /^No ensembles in .*ensembles\. Create one with colloquy init, set ensembles_dir in colloquy\.yaml, or add \.llm-orc\/ensembles\/\.$/m,
    );
    io.out = '';
    await cli('list-profiles');
    expect(io.out).toMatch(/^No profiles\. .*model_profiles: to \.llm-orc\/config\.yaml\.$/m);
  });

  it('list-profiles marks a broken llm-orc profile as unusable instead of failing', async () => {
    const root = llmOrcProject();
    mkdirSync(path.join(root, '.llm-orc', 'profiles'));
    writeFileSync(
      path.join(root, '.llm-orc', 'profiles', 'bad.yaml'),
      'name: bad\nmodel: x\nprovider: nonexistent-provider\n',
    );
    process.chdir(root);
    await cli('list-profiles');
    expect(io.out).toMatch(/^bad\s+\(unusable: Profile "bad" .*is invalid: provider: /m);
    expect(io.out).toMatch(/^analyst\s+ollama\/mock-analyst/m);
  });
});
