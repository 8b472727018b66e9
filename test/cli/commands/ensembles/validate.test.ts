import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, io, llmOrcProject, tempDir } from './helpers.js';

describe('colloquy validate', () => {
  it('accepts llm-orc files (their profiles, parameters, metadata) and checks script files', async () => {
    const root = llmOrcProject();
    const dir = path.join(root, '.llm-orc', 'ensembles');
    writeFileSync(
      path.join(dir, 'missing.yaml'),
      'name: m\ndescription: x\nagents:\n  - name: a\n    script: scripts/nope.py\n',
    );
    await cli(
      'validate',
      path.join(dir, 'testing', 'pipeline.yaml'),
      path.join(dir, 'missing.yaml'),
    );
    const lines = io.out.trim().split('\n');
    expect(lines[0]).toBe(`${path.join(dir, 'testing', 'pipeline.yaml')}: ok`);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${path.join(dir, 'missing.yaml')}:5:13: agents\\[0\\]\\.script: script file does not exist; looked at `,
      ),
    );
    expect(io.err).toContain('1 of 2 files valid, 1 problems');
    expect(process.exitCode).toBe(1);
  });

  it('reports every file even when one has an unresolved alias', async () => {
    const dir = tempDir();
    const bad = path.join(dir, 'alias.yaml');
    const good = path.join(dir, 'good.yaml');
    writeFileSync(bad, 'name: a\nagents:\n  - name: x\n    script: *nowhere\n');
    writeFileSync(good, 'name: g\nagents:\n  - name: x\n    script: echo hi\n');
    await cli('validate', bad, good);
    const lines = io.out.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^${bad}:4:13: \\(yaml\\): invalid YAML: Unresolved alias`),
    );
    expect(lines[1]).toBe(`${good}: ok`);
  });

  it('an unreadable file is reported and the others are still checked', async () => {
    const dir = tempDir();
    const good = path.join(dir, 'good.yaml');
    writeFileSync(good, 'name: g\nagents:\n  - name: x\n    script: echo hi\n');
    await cli('v', path.join(dir, 'none.yaml'), good);
    expect(io.out).toMatch(/none\.yaml:1:1: \(file\): cannot read: ENOENT/);
    expect(io.out).toContain(`${good}: ok`);
  });
});
