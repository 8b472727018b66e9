import { Agent, Runner } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CHAT_WAIT_MS,
  DEFAULT_MAX_TURNS,
  resolveAgencyOptions,
} from '../../src/agency/options.js';
import { defaultSendMessageTool } from '../../src/agency/sendMessage.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const a = new Agent({ name: 'A', instructions: 'a' });
const agents = new Map([['A', a]]);
const threads = new ThreadManager({ store: new MemoryStore() });

describe('resolveAgencyOptions', () => {
  it('fills every default in one place', () => {
    const resolved = resolveAgencyOptions({ entryPoints: [a], threads }, agents);
    expect(resolved).toMatchObject({
      name: 'agency',
      maxRecursionDepth: 5,
      ownsStore: false,
      threads,
      autoCheckpoint: false,
      hooks: {},
      tracing: true,
      context: {},
      maxTurns: DEFAULT_MAX_TURNS,
      maxTurnsByAgent: {},
      chatWaitMs: DEFAULT_CHAT_WAIT_MS,
      prices: {},
      validationAttempts: 0,
      sharedInstructions: '',
    });
    expect(resolved.sendMessageTool).toBe(defaultSendMessageTool);
    expect(resolved.runner).toBeInstanceOf(Runner);
  });

  it('copies what it is given, so later changes to the options do not leak in', () => {
    const userContext = { tenant: 't1' };
    const runner = new Runner({ tracingDisabled: true });
    const resolved = resolveAgencyOptions(
      { entryPoints: [a], threads, userContext, runner, maxTurnsByAgent: { A: 3 } },
      agents,
    );
    userContext.tenant = 'changed';
    expect(resolved.context).toEqual({ tenant: 't1' });
    expect(resolved.runner).toBe(runner);
    expect(resolved.maxTurnsByAgent).toEqual({ A: 3 });
  });

  it.each([
    [{ maxRecursionDepth: 0 }, /maxRecursionDepth must be a whole number ≥ 1 \(got 0\)/],
    [{ maxTurns: 2.5 }, /maxTurns must be a whole number ≥ 1 \(got 2.5\)/],
    [{ maxTurnsByAgent: { Z: 3 } }, /maxTurnsByAgent names "Z".*Agents: A/],
    [{ maxTurnsByAgent: { A: 0 } }, /maxTurnsByAgent\.A must be a whole number ≥ 1/],
    [{ chatWaitMs: -1 }, /chatWaitMs must be ≥ 0 ms \(got -1\)/],
    [{ validationAttempts: -2 }, /validationAttempts must be a whole number ≥ 0 \(got -2\)/],
  ])('refuses %o with AGENCY_INVALID naming the option and value', (bad, message) => {
    let caught: unknown;
    try {
      resolveAgencyOptions({ entryPoints: [a], threads, ...bad }, agents);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'AGENCY_INVALID' });
    expect(String((caught as Error).message)).toMatch(message);
  });
});
