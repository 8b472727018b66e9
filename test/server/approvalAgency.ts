/** A test agency whose sub-agent has a tool that needs approval (server and studio tests). */
import { tool } from '@openai/agents-core';
import { z } from 'zod';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel, type ScriptedStep } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

/** Front → Clerk; the clerk's `delete_reports` needs approval. */
export function approvalAgency(store: ThreadStore = new MemoryStore()) {
  const executed: number[] = [];
  const deleteReports = tool({
    name: 'delete_reports',
    description: 'Deletes the reports of a year.',
    parameters: z.object({ year: z.number() }),
    needsApproval: true,
    execute: async ({ year }) => {
      executed.push(year);
      return `deleted ${year}`;
    },
  });
  const answerAfterTools = (name: string, first: ScriptedStep) =>
    new ScriptedModel((request) => {
      const outputs = toolOutputsSinceUser(request);
      return outputs.length === 0 ? first : `${name}: ${outputs.join(',')}`;
    });
  const clerk = new Agent({
    name: 'Clerk',
    instructions: 'c',
    model: answerAfterTools('Clerk', { tool: 'delete_reports', args: { year: 2020 } }),
    tools: [deleteReports],
  });
  const front = new Agent({
    name: 'Front',
    instructions: 'f',
    model: answerAfterTools('Front', {
      tool: 'send_message',
      args: { recipient: 'Clerk', message: 'delete 2020', additionalInstructions: null },
    }),
  });
  const agency = new Agency({
    name: 'office',
    entryPoints: [front],
    communicationFlows: [[front, clerk]],
    threads: new ThreadManager({ store }),
  });
  return { agency, executed };
}
