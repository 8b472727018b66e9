/** validationAttempts: an output guardrail's message goes back to the agent, which answers again. */
import type { ModelRequest, OutputGuardrail } from '@openai/agents-core';
import { OutputGuardrailTripwireTriggered } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { lastUserText } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { chatThreads, label } from './helpers.js';

const shouting: OutputGuardrail = {
  name: 'no_shouting',
  execute: async ({ agentOutput }) => ({
    tripwireTriggered: String(agentOutput) !== String(agentOutput).toLowerCase(),
    outputInfo: { message: 'write in lower case only' },
  }),
};

/** Answers in capitals until told (by the guardrail's feedback) to use lower case. */
function writer(requests: ModelRequest[], stubborn = false): Agent {
  return new Agent({
    name: 'Writer',
    instructions: 'w',
    outputGuardrails: [shouting],
    model: new ScriptedModel(
      (request) => {
        requests.push(request);
        return !stubborn && lastUserText(request).includes('lower case') ? 'hello there' : 'HELLO';
      },
      { repeatLast: true },
    ),
  });
}

const agencyOf = (agent: Agent, validationAttempts?: number) =>
  new Agency({
    entryPoints: [agent],
    threads: new ThreadManager({ store: new MemoryStore() }),
    ...(validationAttempts === undefined ? {} : { validationAttempts }),
  });

describe('validationAttempts', () => {
  it('feeds the guardrail message back and saves only the accepted answer', async () => {
    const requests: ModelRequest[] = [];
    const agency = agencyOf(writer(requests), 2);
    const result = await agency.getResponse('greet me', { chatId: 'v' });
    expect(result.finalOutput).toBe('hello there');
    expect(requests).toHaveLength(2);
    expect(lastUserText(requests[1]!)).toBe(
      'Your answer did not pass the "no_shouting" check: write in lower case only. Answer again, fixing that.',
    );
    expect(result.usage.requests).toBe(2);
    const thread = (await chatThreads(agency, 'v')).get('v__Writer__USER')!;
    expect(thread.map((e) => label(e.item))).toEqual(['user:greet me', 'assistant:hello there']);
  });

  it('fails with the tripwire after n retries', async () => {
    const requests: ModelRequest[] = [];
    const error = await agencyOf(writer(requests, true), 2)
      .getResponse('greet me')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(requests).toHaveLength(3);
  });

  it('does not retry by default, and refuses a negative count', async () => {
    const requests: ModelRequest[] = [];
    await expect(agencyOf(writer(requests)).getResponse('greet me')).rejects.toBeInstanceOf(
      OutputGuardrailTripwireTriggered,
    );
    expect(requests).toHaveLength(1);
    expect(() => agencyOf(writer([]), -1)).toThrow(/validationAttempts/);
  });
});
