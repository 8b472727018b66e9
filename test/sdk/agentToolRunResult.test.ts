// Contract: the SDK's internal agentToolRunResults module, which nested tool approvals need.
import { describe, expect, it } from 'vitest';
import {
  loadAgentToolRunResults,
  saveAgentToolRunResult,
} from '../../src/sdk/agentToolRunResult.js';

describe('sdk: agentToolRunResult', () => {
  it('finds the SDK module and its save and consume functions', async () => {
    const module = await loadAgentToolRunResults();
    expect(typeof module.saveAgentToolRunResult).toBe('function');
    expect(typeof module.consumeAgentToolRunResult).toBe('function');
  });

  it('saves a result the SDK hands out once for the same tool call object', async () => {
    const toolCall = { type: 'function_call', callId: 'call_1', name: 'send_message' };
    const result = { state: 'nested' };
    await saveAgentToolRunResult(toolCall, result);
    const { consumeAgentToolRunResult } = await loadAgentToolRunResults();
    expect(consumeAgentToolRunResult({ ...toolCall })).toBeUndefined(); // keyed by identity
    expect(consumeAgentToolRunResult(toolCall)).toBe(result);
    expect(consumeAgentToolRunResult(toolCall)).toBeUndefined();
  });
});
