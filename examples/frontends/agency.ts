/**
 * The agency behind the frontend examples (docs/frontends.md): a desk that delegates writing to a
 * writer, asks a clerk to delete reports (a tool that needs the user's approval), and calls the
 * page's own `set_theme` tool when the page offers it (a client tool: the browser runs it).
 * Offline on scripted models; give each agent a model name (e.g. 'gpt-4.1-mini') for a real one.
 *
 *   npx colloquy serve --config examples/frontends/colloquy.yaml   (serves agencies.ts)
 *
 * In your own project, import these from the package ('colloquy') instead of the source tree.
 */
import { tool } from '@openai/agents-core';
import { z } from 'zod';
import { Agency, Agent } from '../../src/index.js';
import {
  ScriptedModel,
  lastUserText,
  toolOutputsSinceUser,
  type ScriptedStep,
} from '../../src/models.js';
import type { ThreadManager } from '../../src/index.js';
import type { ModelRequest } from '@openai/agents-core';

/** The frontdesk agency, with its threads in `threads` (default: the default store). */
export function createFrontdesk(options: { threads?: ThreadManager } = {}) {
  /** Reports the clerk deleted, by year (the tests read it). */
  const deletedYears: number[] = [];
  const deleteReports = tool({
    name: 'delete_reports',
    description: 'Deletes the reports of one year. Irreversible: the user must approve.',
    parameters: z.object({ year: z.number().int() }),
    needsApproval: true,
    execute: async ({ year }) => {
      deletedYears.push(year);
      return `deleted the ${year} reports`;
    },
  });

  const desk = new Agent({
    name: 'Desk',
    description: 'Answers the user; delegates writing and deletions.',
    instructions:
      'Delegate writing to Writer and deletions to Clerk. When the page offers set_theme, use it to change the theme.',
    model: new ScriptedModel(deskStep, { name: 'desk' }),
  });
  const writer = new Agent({
    name: 'Writer',
    description: 'Writes short texts.',
    instructions: 'Write two sentences on the topic.',
    model: new ScriptedModel((request) => `Writer wrote about ${lastUserText(request)}.`, {
      name: 'writer',
    }),
  });
  const clerk = new Agent({
    name: 'Clerk',
    description: 'Deletes reports (with approval).',
    instructions: 'Delete the reports you are asked to, with delete_reports.',
    tools: [deleteReports],
    model: new ScriptedModel(
      (request) => {
        const [done] = toolOutputsSinceUser(request);
        if (done !== undefined) return `Clerk: ${done}`;
        const year = Number(/(\d{4})/.exec(lastUserText(request))?.[1] ?? 2020);
        return { tool: 'delete_reports', args: { year } };
      },
      { name: 'clerk' },
    ),
  });
  const agency = new Agency({
    name: 'frontdesk',
    entryPoints: [desk],
    communicationFlows: [
      [desk, writer],
      [desk, clerk],
    ],
    ...(options.threads ? { threads: options.threads } : {}),
  });
  return { agency, deletedYears };
}

const offers = (request: ModelRequest, name: string): boolean =>
  (request.tools ?? []).some((t) => (t as { name?: string }).name === name);

/** What the desk does with a user message: delegate, delete (via the clerk) or set the theme. */
function deskStep(request: ModelRequest): ScriptedStep {
  const [answer] = toolOutputsSinceUser(request);
  if (answer !== undefined) return `Desk: ${answer}`;
  const text = lastUserText(request);
  const year = /delete.*?(\d{4})/i.exec(text)?.[1];
  if (year) {
    return {
      tool: 'send_message',
      args: { recipient: 'Clerk', message: `delete ${year}`, additionalInstructions: null },
    };
  }
  const theme = /\b(dark|light)\b/i.exec(text)?.[1];
  if (theme && offers(request, 'set_theme')) {
    return { tool: 'set_theme', args: { theme: theme.toLowerCase() } };
  }
  return {
    tool: 'send_message',
    args: { recipient: 'Writer', message: text, additionalInstructions: null },
  };
}
