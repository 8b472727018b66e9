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
