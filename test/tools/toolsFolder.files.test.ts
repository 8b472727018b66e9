/**
 * Which files `toolsFromFolder` reads and what it says when one is wrong, on modules written to a
 * temp folder (plain `.mjs`, tool-shaped objects, so no loader is involved).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { isSdkTool, toolsFromFolder } from '../../src/tools/toolsFolder.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'colloquy-tools-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const toolModule = (name: string) =>
  `export const ${name} = { type: 'function', name: '${name}', invoke: async () => '${name}' };\n`;

describe('toolsFromFolder files', () => {
  it('reads modules in name order and leaves out tests, specs, subfolders and other files', async () => {
    const dir = folderWith({
      'b.mjs': toolModule('beta'),
      'a.mjs': toolModule('alpha'),
      'a.test.mjs': toolModule('fromTest'),
      'a.spec.js': toolModule('fromSpec'),
      'nested/c.mjs': toolModule('nested'),
      'notes.txt': 'not a module',
    });
    const tools = await toolsFromFolder(dir, { extensions: ['.mjs', '.js'] });
    expect(tools.map((t) => t.name)).toEqual(['alpha', 'beta']);
  });

  it('keeps one tool exported twice by the same module (named and default)', async () => {
    const dir = folderWith({
      'one.mjs': `${toolModule('solo')}export default solo;\n`,
    });
    const tools = await toolsFromFolder(dir, { extensions: ['.mjs'] });
    expect(tools.map((t) => t.name)).toEqual(['solo']);
  });

  it('names the file that fails to load and the fix', async () => {
    const dir = folderWith({ 'ok.mjs': toolModule('fine'), 'broken.mjs': 'export const = ;' });
    const failure = await toolsFromFolder(dir, { extensions: ['.mjs'] }).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(
      /toolsFolder ".*": broken\.mjs failed to load \([\s\S]+\)\. Fix the module or move it out of the folder\./,
    );
  });

  it('returns no tools for a folder of modules without tools', async () => {
    const dir = folderWith({ 'helpers.mjs': 'export const answer = 42;\n' });
    expect(await toolsFromFolder(dir, { extensions: ['.mjs'] })).toEqual([]);
  });

  it('recognises every SDK tool type and nothing else', () => {
    for (const type of ['function', 'hosted_tool', 'computer', 'shell', 'apply_patch'])
      expect(isSdkTool({ type, name: 't' })).toBe(true);
    expect(isSdkTool({ type: 'function' })).toBe(false);
    expect(isSdkTool(null)).toBe(false);
    expect(isSdkTool('function')).toBe(false);
  });
});
