import { tool } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agency } from '../../../src/agency/agency.js';
import { Agent } from '../../../src/agency/agent.js';
import { createDemoAgency } from '../../../src/demo/demoAgency.js';
import { modelName } from '../../../src/server/routes/agencyGraph.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { json, listen } from '../helpers.js';

describe('GET /agencies/:name/graph', () => {
  const demo = () => ({
    agencies: [createDemoAgency({ threads: new ThreadManager({ store: new MemoryStore() }) })],
  });

  it('describes the demo agency: entry points, flows, agents with instructions and model', async () => {
    const server = await listen(demo());
    const res = await fetch(`${server.url}/agencies/demo/graph`);
    expect(res.status).toBe(200);
    const graph = await json(res);
    expect(graph.entryPoints).toEqual(['Coordinator']);
    expect(graph.flows).toEqual([
      ['Coordinator', 'Researcher'],
      ['Coordinator', 'Writer'],
      ['Writer', 'Editor'],
    ]);
    expect(graph.agents.map((a: { name: string }) => a.name)).toEqual([
      'Coordinator',
      'Researcher',
      'Writer',
      'Editor',
    ]);
    const researcher = graph.agents[1];
    expect(researcher).toMatchObject({
      description: 'Finds key facts about a topic.',
      instructions: 'Answer with three short, numbered facts.',
      entryPoint: false,
      recipients: [],
      tools: [],
    });
    expect(typeof researcher.model).toBe('string');
    expect(graph.agents[0]).toMatchObject({
      entryPoint: true,
      recipients: ['Researcher', 'Writer'],
    });
    expect(graph.mermaid).toContain('a0 -->|send_message| a1');
  });

  it('lists tools with descriptions, a model name, and null for dynamic instructions', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a word up.',
      parameters: z.object({ word: z.string() }),
      execute: async ({ word }) => word,
    });
    const solo = new Agent({
      name: 'Solo',
      instructions: () => 'computed',
      model: 'gpt-4.1-mini',
      modelSettings: { temperature: 0.2 },
      tools: [lookup],
    });
    const helper = new Agent({
      name: 'Helper',
      instructions: 'h',
      model: new ScriptedModel(() => 'ok'),
    });
    const agency = new Agency({
      name: 'tools',
      entryPoints: [solo],
      communicationFlows: [[solo, helper]],
      threads: new ThreadManager({ store: new MemoryStore() }),
    });
    const server = await listen({ agencies: [agency] });
    const graph = await json(await fetch(`${server.url}/agencies/tools/graph`));
    const soloDetail = graph.agents[0];
    expect(soloDetail).toMatchObject({
      instructions: null,
      model: 'gpt-4.1-mini',
      modelSettings: { temperature: 0.2 },
    });
    expect(graph.agents[1].model).toBe('scripted');
    expect(soloDetail.tools).toContainEqual({ name: 'lookup', description: 'Looks a word up.' });
    expect(soloDetail.tools.map((t: { name: string }) => t.name)).toContain('lookup');
  });

  it('names models by what users know them as, never by a class name', () => {
    expect(modelName({})).toBe('custom model');
    expect(modelName(new ScriptedModel(() => 'ok', { name: 'front' }))).toBe('scripted');
    expect(modelName({ inner: { model: 'gpt-4.1' } })).toBe('gpt-4.1');
    expect(modelName('')).toBeNull();
  });

  it('answers 404 naming the served agencies for an unknown one', async () => {
    const server = await listen(demo());
    const res = await fetch(`${server.url}/agencies/nope/graph`);
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('AGENCY_NOT_FOUND');
  });
});
