import type { AgentInputItem } from '@openai/agents-core';
import { Runner } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { parseCitations } from '../../src/files/searchTool.js';
import { lastUserText, toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { docsFolder, linesWith } from './helpers.js';

/** A researcher that searches for the question, then answers quoting the top citation. */
function researcherModel(): ScriptedModel {
  return new ScriptedModel(
    (request) => {
      const [listing] = toolOutputsSinceUser(request);
      if (listing === undefined)
        return { tool: 'file_search', args: { query: lastUserText(request) } };
      const [top] = parseCitations(listing);
      if (!top) return `Not in the files: ${listing}`;
      return `${top.excerpt} (${top.path}:${top.startLine}-${top.endLine})`;
    },
    { name: 'researcher' },
  );
}

describe('Agent filesFolder', () => {
  it('adds a file_search tool, and rejects fileSearch without a folder', () => {
    const { folder, indexDir } = docsFolder({ 'a.md': 'x\n' });
    const agent = new Agent({
      name: 'R',
      filesFolder: folder,
      fileSearch: { indexDir },
      tools: [],
    });
    expect(agent.tools.map((t) => t.name)).toEqual(['file_search']);
    expect(agent.files?.folder).toBe(folder);
    expect(new Agent({ name: 'Plain' }).files).toBeUndefined();
    expect(() => new Agent({ name: 'Bad', fileSearch: 'local' })).toThrow(
      /fileSearch is set but filesFolder is not/,
    );
    expect(
      () => new Agent({ name: 'Bad', filesFolder: folder, fileSearch: { maxResults: 0 } }),
    ).toThrow(/maxResults is 0/);
  });

  it('answers a send_message from the caller with a cited answer', async () => {
    const { folder, indexDir } = docsFolder({
      'guide.md': linesWith(30, {
        12: 'Heron lamps must be descaled every 90 days.',
        13: 'Descaled lamps shine for days.',
      }),
      'faq.md': 'Q: Do heron lamps float?\nA: No.\n',
    });
    const researcher = new Agent({
      name: 'Researcher',
      description: 'Answers from the product docs, with citations.',
      filesFolder: folder,
      fileSearch: { indexDir },
      model: researcherModel(),
    });
    const coordinatorModel = new ScriptedModel(
      (request) => {
        const [answer] = toolOutputsSinceUser(request);
        if (answer === undefined) {
          return {
            tool: 'send_message',
            args: {
              recipient: 'Researcher',
              message: 'descaled heron lamps days',
              additionalInstructions: null,
            },
          };
        }
        return `Researcher says: ${answer}`;
      },
      { name: 'coordinator' },
    );
    const coordinator = new Agent({ name: 'Coordinator', model: coordinatorModel });
    const agency = new Agency({
      entryPoints: [coordinator],
      communicationFlows: [[coordinator, researcher]],
      threads: new ThreadManager({ store: new MemoryStore() }),
    });
    const result = await agency.getResponse('How often are heron lamps descaled?');
    expect(result.finalOutput).toBe(
      'Researcher says: Heron lamps must be descaled every 90 days. Descaled lamps shine for days. (guide.md:12-13)',
    );
    const toolOutputs = result.newItems
      .filter((entry) => entry.agent === 'Researcher' && entry.item.type === 'function_call_result')
      .map((entry) =>
        JSON.stringify(
          (entry.item as Extract<AgentInputItem, { type: 'function_call_result' }>).output,
        ),
      );
    expect(toolOutputs).toHaveLength(1);
    expect(toolOutputs[0]).toContain(
      '[1] guide.md:12-13 — Heron lamps must be descaled every 90 days.',
    );
  });

  it('works with the plain SDK Runner, and a missing folder fails the run with the fix', async () => {
    const { folder, indexDir } = docsFolder({ 'notes.txt': 'Ibis kettles hold two litres.\n' });
    const agent = new Agent({
      name: 'Solo',
      filesFolder: folder,
      fileSearch: { indexDir },
      model: researcherModel(),
    });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'ibis kettles litres');
    expect(result.finalOutput).toBe('Ibis kettles hold two litres. (notes.txt:1-1)');
    const lost = new Agent({
      name: 'Lost',
      filesFolder: `${folder}-missing`,
      fileSearch: { indexDir },
      model: researcherModel(),
    });
    await expect(new Runner({ tracingDisabled: true }).run(lost, 'anything')).rejects.toThrow(
      /filesFolder ".*-missing" does not exist/,
    );
  });
});
