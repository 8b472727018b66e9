/**
 * An agency for the real-client tests: it answers `reply to <text> (#n)`, n being the number of
 * user messages it has seen in the chat, or, when the request asks for a JSON schema output,
 * `{ "topic": <text>, "count": n }`. It records every model request so tests can see what arrived.
 */
import type { ModelRequest } from '@openai/agents-core';
import { Agency } from '../../../src/agency/agency.js';
import { Agent } from '../../../src/agency/agent.js';
import { lastUserText } from '../../../src/models/requestText.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';

export function countingAgency(name = 'counter'): { agency: Agency; requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  const model = new ScriptedModel(
    (request) => {
      requests.push(request);
      const input = Array.isArray(request.input) ? request.input : [];
      const users = input.filter((item) => 'role' in item && item.role === 'user').length;
      const text = lastUserText(request);
      if (request.outputType !== 'text' && request.outputType !== undefined) {
        return JSON.stringify({ topic: text, count: users });
      }
      return `reply to ${text} (#${users})`;
    },
    { repeatLast: true },
  );
  const agency = new Agency({
    name,
    entryPoints: [new Agent({ name: 'Front', instructions: 'Answer.', model })],
    threads: new ThreadManager({ store: new MemoryStore() }),
  });
  return { agency, requests };
}
