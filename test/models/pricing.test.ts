import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import type { Usage } from '../../src/usage.js';
import { renderUsage } from '../../src/cli/transcript.js';
import { costPico, modelPrice, profilePrice, setModelPrice } from '../../src/models/pricing.js';
import { modelProfileSchema } from '../../src/models/profile.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

describe('model prices', () => {
  it('come from the table by name, dated snapshots and provider prefixes included', () => {
    expect(modelPrice('gpt-4o-mini')).toEqual({ inputPerMillion: 0.15, outputPerMillion: 0.6 });
    expect(modelPrice('gpt-4o-2024-08-06')).toEqual(modelPrice('gpt-4o'));
    expect(modelPrice('openai/gpt-4.1-mini')).toEqual(modelPrice('gpt-4.1-mini'));
    expect(modelPrice('my-local-model')).toBeUndefined();
    expect(modelPrice(undefined)).toBeUndefined();
  });

  it('come from a profile: cost_per_million wins over cost_per_token', () => {
    expect(profilePrice({ cost_per_token: 0.000002 })).toEqual({
      inputPerMillion: 2,
      outputPerMillion: 2,
    });
    expect(profilePrice({ cost_per_token: { input: 1e-6, output: 4e-6 } })).toEqual({
      inputPerMillion: 1,
      outputPerMillion: 4,
    });
    expect(
      profilePrice({ cost_per_token: 1, cost_per_million: { input: 0.5, output: 1.5 } }),
    ).toEqual({ inputPerMillion: 0.5, outputPerMillion: 1.5 });
    expect(profilePrice({})).toBeUndefined();
    const parsed = modelProfileSchema.parse({
      model: 'm',
      provider: 'scripted',
      cost_per_million: { input: 1, output: 2 },
    });
    expect(parsed.cost_per_million).toEqual({ input: 1, output: 2 });
    expect(() =>
      modelProfileSchema.parse({ model: 'm', provider: 'scripted', cost_per_token: -1 }),
    ).toThrow();
  });

  it('attach to Model objects', () => {
    const model = new ScriptedModel(['x']);
    expect(modelPrice(model)).toBeUndefined();
    setModelPrice(model, { inputPerMillion: 9, outputPerMillion: 9 });
    expect(modelPrice(model)).toEqual({ inputPerMillion: 9, outputPerMillion: 9 });
  });

  it('give exact pico-dollar costs', () => {
    expect(costPico({ inputPerMillion: 0.1, outputPerMillion: 0.2 }, 3, 1)).toBe(500_000);
  });
});

describe('usage.cost of an agency call', () => {
  it('is summed exactly over the call tree, per agent and in total', async () => {
    const worker = new Agent({
      name: 'Worker',
      instructions: 'w',
      model: new ScriptedModel([{ text: 'done', usage: { inputTokens: 7, outputTokens: 3 } }]),
    });
    const boss = new Agent({
      name: 'Boss',
      instructions: 'b',
      model: new ScriptedModel([
        {
          tool: 'send_message',
          args: { recipient: 'Worker', message: 'go', additionalInstructions: null },
          usage: { inputTokens: 11, outputTokens: 1 },
        },
        { text: 'ok', usage: { inputTokens: 13, outputTokens: 2 } },
      ]),
    });
    const perAgent = new Map<string, Usage>();
    const agency = new Agency({
      entryPoints: [boss],
      communicationFlows: [[boss, worker]],
      threads: new ThreadManager({ store: new MemoryStore() }),
      prices: {
        Boss: { inputPerMillion: 0.1, outputPerMillion: 0.3 },
        Worker: { inputPerMillion: 0.7, outputPerMillion: 1.1 },
      },
      hooks: { onRunEnd: ({ agent, usage }) => void perAgent.set(agent, usage) },
    });
    const { usage } = await agency.getResponse('start');
    // Boss: 24 in × 0.1 + 3 out × 0.3 = 3.3 µ$; Worker: 7 × 0.7 + 3 × 1.1 = 8.2 µ$.
    expect(perAgent.get('Boss')!.costPico).toBe(3_300_000);
    expect(perAgent.get('Worker')!.costPico).toBe(8_200_000);
    expect(usage.costPico).toBe(11_500_000);
    expect(usage.cost).toBe(11_500_000 / 1e12);
    const table = renderUsage(perAgent, usage).join('\n');
    expect(table).toMatch(/cost/);
    expect(table).toMatch(/total .* \$0\.000012/);
  });

  it('is absent when no model has a price', async () => {
    const agency = new Agency({
      entryPoints: [new Agent({ name: 'A', instructions: 'a', model: new ScriptedModel(['x']) })],
      threads: new ThreadManager({ store: new MemoryStore() }),
    });
    const { usage } = await agency.getResponse('hi');
    expect(usage.cost).toBeUndefined();
    expect(renderUsage(new Map(), usage).join('\n')).not.toMatch(/cost/);
  });
});
