import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { isSdkTool, toolsFromFolder } from '../../src/tools/toolsFolder.js';

const folder = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('toolsFromFolder', () => {
  it('collects the SDK tools every module exports, named, default or in arrays', async () => {
    const tools = await toolsFromFolder(folder('toolsFolder'));
    expect(tools.map((t) => t.name)).toEqual(['add', 'multiply', 'forecast']);
    expect(tools.every(isSdkTool)).toBe(true);
    expect(isSdkTool({ name: 'x', type: 'nope' })).toBe(false);
  });

  it('gives them to an agent that calls them', async () => {
    const tools = await toolsFromFolder(folder('toolsFolder'));
    const agent = new Agent({
      name: 'Calc',
      instructions: 'c',
      tools,
      model: new ScriptedModel([
        { tool: 'multiply', args: { a: 6, b: 7 } },
        (request) => `result ${toolOutputsSinceUser(request).join(',')}`,
      ]),
    });
    const agency = new Agency({
      entryPoints: [agent],
      threads: new ThreadManager({ store: new MemoryStore() }),
    });
    expect((await agency.getResponse('6*7?')).finalOutput).toBe('result 42');
  });

  it('names both files of a duplicate tool name, and a missing folder', async () => {
    await expect(toolsFromFolder(folder('duplicate'))).rejects.toThrow(
      /"forecast" is exported by both a\.ts and b\.ts/,
    );
    await expect(toolsFromFolder(folder('nope'))).rejects.toThrow(/cannot be read/);
  });
});

describe('toolsFromFolder extensions', () => {
  it('loads only the extensions asked for', async () => {
    expect(await toolsFromFolder(folder('toolsFolder'), { extensions: ['.js'] })).toEqual([]);
  });
});
