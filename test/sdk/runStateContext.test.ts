// Contract: a paused run's RunState carries the run context (approvals, the user's context).
import { Agent, RunContext, Runner, tool } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runStateContext } from '../../src/sdk/runStateContext.js';
import { fakeModel } from './fakeModel.js';

describe('sdk: runStateContext', () => {
  it('is the context the run was given, with the pending approval on it', async () => {
    const wipe = tool({
      name: 'wipe',
      description: 'Wipes a disk.',
      parameters: z.object({}),
      needsApproval: true,
      execute: async () => 'wiped',
    });
    const agent = new Agent({
      name: 'Ops',
      model: fakeModel([{ call: 'wipe' }, { text: 'done' }]),
      tools: [wipe],
    });
    const user = { tenant: 'acme' };
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'wipe it', {
      context: user,
    });
    expect(result.interruptions).toHaveLength(1);
    const context = runStateContext(result.state);
    expect(context).toBeInstanceOf(RunContext);
    expect(context.context).toBe(user);
    expect(context.isToolApproved({ toolName: 'wipe', callId: 'call_1' })).toBeUndefined();
    result.state.approve(result.interruptions[0]!);
    expect(context.isToolApproved({ toolName: 'wipe', callId: 'call_1' })).toBe(true);
  });
});
