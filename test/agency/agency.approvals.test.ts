/**
 * Tool approvals inside an agency: a tool needing approval in a sub-agent (at any depth)
 * interrupts the whole call with a serializable state; resuming with decisions finishes the call
 * without re-running finished steps or writing history twice.
 */
import { describe, expect, it } from 'vitest';
import { tool } from '@openai/agents-core';
import { z } from 'zod';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { SerializationError } from '../../src/errors.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel, type ScriptedStep } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { chatThreads, label, send } from './helpers.js';

/** A → B → C; C's `delete_reports` needs approval. Returns the agency and its moving parts. */
function build(store = new MemoryStore()) {
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
  // Responders decide from the request alone, as a real model would, so that a second agency
  // instance (another process) resumes correctly.
  const step = (name: string, first: ScriptedStep) =>
    new ScriptedModel(
      (r) => {
        const outputs = toolOutputsSinceUser(r);
        return outputs.length === 0 ? first : `${name}: ${outputs.join(',')}`;
      },
      { name: name.toLowerCase() },
    );
  const models = {
    A: step('A', send('B', 'tidy up')),
    B: step('B', send('C', 'delete 2020')),
    C: step('C', { tool: 'delete_reports', args: { year: 2020 } }),
  };
  const c = new Agent({ name: 'C', instructions: 'c', model: models.C, tools: [deleteReports] });
  const b = new Agent({ name: 'B', instructions: 'b', model: models.B });
  const a = new Agent({ name: 'A', instructions: 'a', model: models.A });
  const agency = new Agency({
    entryPoints: [a],
    communicationFlows: [
      [a, b],
      [b, c],
    ],
    threads: new ThreadManager({ store }),
  });
  return { agency, models, executed, store };
}

describe('a tool needing approval two levels down', () => {
  it('interrupts the whole call with the pending call and a JSON state', async () => {
    const { agency, executed } = build();
    const result = await agency.getResponse('go', { chatId: 'appr' });
    expect(result.finalOutput).toBeUndefined();
    expect(result.interruptions).toEqual([
      {
        callId: expect.any(String),
        toolName: 'delete_reports',
        arguments: '{"year":2020}',
        agent: 'C',
      },
    ]);
    expect(() => JSON.parse(result.state!)).not.toThrow();
    expect(executed).toEqual([]);
  });

  it('finishes on approval without re-running finished steps or duplicating history', async () => {
    const { agency, models, executed } = build();
    const first = await agency.getResponse('go', { chatId: 'appr' });
    const callsBefore = {
      A: models.A.calls.length,
      B: models.B.calls.length,
      C: models.C.calls.length,
    };
    expect(callsBefore).toEqual({ A: 1, B: 1, C: 1 });

    const done = await agency.resume(first.state!, {
      approve: first.interruptions!.map((i) => i.callId),
    });
    expect(done.interruptions).toBeUndefined();
    expect(done.finalOutput).toBe('A: B: C: deleted 2020');
    expect(executed).toEqual([2020]);
    expect({
      A: models.A.calls.length,
      B: models.B.calls.length,
      C: models.C.calls.length,
    }).toEqual({ A: 2, B: 2, C: 2 });
    expect(done.usage.requests).toBe(3);

    const threads = await chatThreads(agency, 'appr');
    for (const [id, items] of threads) {
      const labels = items.map((entry) => label(entry.item));
      expect(
        labels.filter((l) => l.startsWith('user:')),
        id,
      ).toHaveLength(1);
      expect(new Set(items.map((entry) => entry.id)).size, id).toBe(items.length);
    }
    expect(threads.get('appr__B__C')!.map((e) => label(e.item))).toEqual([
      'user:delete 2020',
      'call:delete_reports',
      'result:delete_reports',
      'assistant:C: deleted 2020',
    ]);
  });

  it('runs nothing on rejection and lets the agents finish', async () => {
    const { agency, executed } = build();
    const first = await agency.getResponse('go');
    const done = await agency.resume(first.state!, { reject: true });
    expect(executed).toEqual([]);
    expect(done.interruptions).toBeUndefined();
    expect(String(done.finalOutput)).toMatch(/^A: B: C: /);
    expect(String(done.finalOutput)).not.toContain('deleted 2020');
  });

  it('resumes in another agency instance on the same store (the state is all it needs)', async () => {
    const store = new MemoryStore();
    const first = await build(store).agency.getResponse('go', { chatId: 'moved' });
    const later = build(store);
    const done = await later.agency.resume(JSON.parse(JSON.stringify(first.state!)), {
      approve: true,
    });
    expect(done.finalOutput).toBe('A: B: C: deleted 2020');
    expect(later.executed).toEqual([2020]);
    expect(later.models.A.calls.length).toBe(1);
  });

  it('stays interrupted when no decision is given', async () => {
    const { agency, executed } = build();
    const first = await agency.getResponse('go');
    const again = await agency.resume(first.state!);
    expect(again.interruptions?.map((i) => i.toolName)).toEqual(['delete_reports']);
    expect(executed).toEqual([]);
  });
});

describe('approvals on the entry point', () => {
  it('interrupts and resumes a direct tool call', async () => {
    const ran: string[] = [];
    const shutdown = tool({
      name: 'shutdown',
      description: 'Stops the service.',
      parameters: z.object({}),
      needsApproval: true,
      execute: async () => {
        ran.push('shutdown');
        return 'stopped';
      },
    });
    const model = new ScriptedModel([
      { tool: 'shutdown', args: {} },
      (r) => `done: ${toolOutputsSinceUser(r)[0]}`,
    ]);
    const agency = new Agency({
      entryPoints: [new Agent({ name: 'Ops', instructions: 'o', model, tools: [shutdown] })],
    });
    const first = await agency.getResponse('stop it');
    expect(first.interruptions?.[0]).toMatchObject({ toolName: 'shutdown', agent: 'Ops' });
    const done = await agency.resume(first.state!, { approve: true });
    expect(done.finalOutput).toBe('done: stopped');
    expect(ran).toEqual(['shutdown']);
  });
});

describe('resume input', () => {
  it('rejects a state that is not a pending call, naming the expected format', async () => {
    const { agency } = build();
    await expect(agency.resume('{"format":"other"}')).rejects.toBeInstanceOf(SerializationError);
    await expect(agency.resume('not json')).rejects.toThrow(/not JSON/);
  });
});
