import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { send } from './helpers.js';

describe('send_message with a caller signal', () => {
  it('leaves no abort listener on the signal once the call has answered or failed', async () => {
    const b = new Agent({ name: 'B', instructions: 'b', model: new ScriptedModel(() => 'B ok') });
    const a = new Agent({
      name: 'A',
      instructions: 'a',
      model: new ScriptedModel([send('B', 'hi'), 'A ok', send('B', 'again'), 'A again']),
    });
    const agency = new Agency({ entryPoints: [a], communicationFlows: [[a, b]] });
    const controller = new AbortController();
    const result = await agency.getResponse('go', { signal: controller.signal });
    expect(result.finalOutput).toBe('A ok');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    // A second call on the same signal: still nothing left behind, and an abort now reaches nothing.
    await agency.getResponse('go again', { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
