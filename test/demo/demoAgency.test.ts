import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { createDemoAgency, DEMO_MESSAGE } from '../../src/demo/demoAgency.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const threads = () => new ThreadManager({ store: new MemoryStore() });

/** A model that records the agent names it was asked for and answers with a fixed text. */
function recordingFactory(seen: string[]) {
  return (agent: string): Model => {
    seen.push(agent);
    return new ScriptedModel([`${agent} answers directly.`], { name: agent });
  };
}

describe('createDemoAgency', () => {
  it('has four agents and the coordinator -> researcher/writer, writer -> editor flows', () => {
    const agency = createDemoAgency({ threads: threads() });
    expect([...agency.agents.keys()].sort()).toEqual([
      'Coordinator',
      'Editor',
      'Researcher',
      'Writer',
    ]);
    expect(agency.flows.map((flow) => flow.join(' -> ')).sort()).toEqual([
      'Coordinator -> Researcher',
      'Coordinator -> Writer',
      'Writer -> Editor',
    ]);
    expect(agency.entryPoints).toEqual(['Coordinator']);
    expect(agency.recipientsOf('Researcher')).toEqual([]);
  });

  it('offline, delegates research then writing, and the editor tightens the draft', async () => {
    const agency = createDemoAgency({ threads: threads() });
    const result = await agency.getResponse('Write a short brief about wind power.', {
      chatId: 'demo-wind',
    });
    const output = String(result.finalOutput);
    expect(output.startsWith('Here is your brief on wind power:\n')).toBe(true);
    expect(output).toContain('wind power is predictable years ahead.');
    expect(output).toContain('wind power installations last for decades.');
    // The editor removed the filler and the numbering.
    expect(output).not.toContain('It is well known that');
    expect(output).not.toMatch(/\(\d\)/);
    expect(result.lastAgent).toBe('Coordinator');
    expect(result.chatId).toBe('demo-wind');
  });

  it('makes one model call per step: 3 coordinator, 1 researcher, 2 writer, 1 editor', async () => {
    const agency = createDemoAgency({ threads: threads() });
    const result = await agency.getResponse(DEMO_MESSAGE, { chatId: 'demo-count' });
    expect(result.usage.requests).toBe(7);
    const messages = result.newItems.filter(
      (tagged) => (tagged as { item?: { name?: string } }).item?.name === 'send_message',
    );
    expect(messages.length).toBeGreaterThanOrEqual(3);
  });

  it('uses the topic after "about" or "on", and the whole message otherwise', async () => {
    const agency = createDemoAgency({ threads: threads() });
    const on = await agency.getResponse('Tell me on solar sails!', { chatId: 'demo-on' });
    expect(String(on.finalOutput)).toContain('Here is your brief on solar sails:');
    const bare = await agency.getResponse('geothermal', { chatId: 'demo-bare' });
    expect(String(bare.finalOutput)).toContain('Here is your brief on geothermal:');
  });

  it('keeps each chat separate in the store, with one thread per conversation pair', async () => {
    const manager = threads();
    const agency = createDemoAgency({ threads: manager });
    await agency.getResponse(DEMO_MESSAGE, { chatId: 'chat-a' });
    await agency.getResponse(DEMO_MESSAGE, { chatId: 'chat-b' });
    const a = await manager.store.listThreads({ chatId: 'chat-a' });
    const b = await manager.store.listThreads({ chatId: 'chat-b' });
    expect(a.length).toBe(4); // user-coordinator, coordinator-researcher, coordinator-writer, writer-editor
    expect(b.map((r) => r.threadId).some((id) => a.some((r) => r.threadId === id))).toBe(false);
  });

  it('continues a chat: the second call still answers with a fresh brief', async () => {
    const agency = createDemoAgency({ threads: threads() });
    await agency.getResponse('A brief about tides.', { chatId: 'again' });
    const second = await agency.getResponse('A brief about waves.', { chatId: 'again' });
    expect(String(second.finalOutput)).toContain('Here is your brief on waves:');
  });

  it('asks a model factory for each agent by name', async () => {
    const seen: string[] = [];
    const agency = createDemoAgency({ threads: threads(), model: recordingFactory(seen) });
    expect(seen.sort()).toEqual(['Coordinator', 'Editor', 'Researcher', 'Writer']);
    const result = await agency.getResponse('hi', { chatId: 'factory' });
    expect(result.finalOutput).toBe('Coordinator answers directly.');
    expect(result.usage.requests).toBe(1);
  });

  it('waits delayMs in each offline call', async () => {
    const agency = createDemoAgency({ threads: threads(), delayMs: 15 });
    const started = performance.now();
    const result = await agency.getResponse(DEMO_MESSAGE, { chatId: 'slow' });
    expect(result.usage.requests).toBe(7);
    expect(performance.now() - started).toBeGreaterThanOrEqual(7 * 15 - 5);
  });

  it('streams through the delayed model as well', async () => {
    let streamed = 0;
    class CountingModel implements Model {
      readonly inner = new ScriptedModel(['streamed hello']);
      getResponse(request: ModelRequest): Promise<ModelResponse> {
        return this.inner.getResponse(request);
      }
      async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
        streamed++;
        yield* this.inner.getStreamedResponse(request);
      }
    }
    const agency = createDemoAgency({ threads: threads(), model: () => new CountingModel() });
    let final: unknown;
    for await (const event of agency.getResponseStream('hi', { chatId: 'stream' }))
      if (event.type === 'run_completed') final = event.result.finalOutput;
    expect(final).toBe('streamed hello');
    expect(streamed).toBe(1);
  });

  it('passes prices through to usage.cost', async () => {
    const agency = createDemoAgency({
      threads: threads(),
      prices: { Coordinator: { inputPerMillion: 1_000_000, outputPerMillion: 1_000_000 } },
    });
    const result = await agency.getResponse(DEMO_MESSAGE, { chatId: 'priced' });
    // The coordinator makes 3 calls of 10 input and 5 output tokens (the scripted default) at
    // one dollar per token; the other agents have no price.
    expect(result.usage.cost).toBe(3 * (10 + 5));
    const unpriced = await createDemoAgency({ threads: threads() }).getResponse(DEMO_MESSAGE);
    expect(unpriced.usage.cost).toBeUndefined();
  });
});
