/**
 * The `colloquy-floor` server of the server benches: `startServer` as `colloquy serve` runs it
 * (every route, validation, run log and SSE) with an executor that answers at once, so that what
 * is measured is the HTTP layers alone. Shared by bench/serverTarget.ts (its own process),
 * bench/floorCallgrind.ts and bench/streamFloorCount.ts (in-process, under callgrind).
 * @module
 */
import type { AgencyResponse } from '../src/agency/result.js';

/** What every floor target answers: A's answer, no agent run. */
export const cannedResult = (chatId: string): AgencyResponse => ({
  finalOutput: 'A got: B says hello',
  chatId,
  lastAgent: 'A',
  newItems: [],
  usage: { requests: 2, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
});

/** The Colloquy modules the floor is built from: src/ or, as `--built` loads them, dist/. */
export interface FloorModules {
  Agency: typeof import('../src/agency/agency.js').Agency;
  Agent: typeof import('../src/agency/agent.js').Agent;
  ScriptedModel: typeof import('../src/models/scriptedModel.js').ScriptedModel;
  createRegistry: typeof import('../src/server/registry.js').createRegistry;
  inProcessExecutor: typeof import('../src/server/executor.js').inProcessExecutor;
  startServer: typeof import('../src/server/serve.js').startServer;
  MemoryStore: typeof import('../src/stores/memory.js').MemoryStore;
  ThreadManager: typeof import('../src/threads/threadManager.js').ThreadManager;
}

/** Starts the floor server on a free loopback port. */
export async function startColloquyFloor(
  m: FloorModules,
  options: { handleSignals: boolean; schedules?: false },
): Promise<{ port: number; close: () => Promise<void> }> {
  const store = new m.MemoryStore();
  const a = new m.Agent({
    name: 'A',
    instructions: 'x',
    model: new m.ScriptedModel(() => 'x', { recordCalls: false }),
  });
  const agency = new m.Agency({
    name: 'bench',
    entryPoints: [a],
    threads: new m.ThreadManager({ store }),
  });
  const registry = m.createRegistry({ agencies: [agency], store, ownsStore: true });
  const executor = m.inProcessExecutor(registry);
  const server = await m.startServer({
    port: 0,
    registry,
    handleSignals: options.handleSignals,
    env: {},
    ...(options.schedules === false ? { schedules: false as const } : {}),
    executor: {
      ...executor,
      calls: {
        ...executor.calls,
        getResponse: async (_agency, _message, callOptions) =>
          cannedResult(callOptions.chatId ?? 'x'),
        async *getResponseStream(_agency, _message, callOptions) {
          yield { type: 'run_completed', result: cannedResult(callOptions.chatId ?? 'x') };
        },
      },
    },
  });
  return { port: server.port, close: () => server.close() };
}
