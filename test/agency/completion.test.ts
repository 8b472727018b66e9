import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { resetCompletionWarnings } from '../../src/agency/completion.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { send } from './helpers.js';

/** CEO → Dev: the CEO asks Dev, then answers with Dev's reply inside its own sentence. */
function build(): Agency {
  const ceo = new Agent({
    name: 'CEO',
    instructions: 'Delegate.',
    model: new ScriptedModel(
      [send('Dev', 'Build it'), (r) => `Dev says: ${toolOutputsSinceUser(r)[0]}`, 'Second answer.'],
      { deltaSize: 4 },
    ),
  });
  const dev = new Agent({
    name: 'Dev',
    instructions: 'Build.',
    model: new ScriptedModel(['built and tested'], { deltaSize: 3 }),
  });
  const other = new Agent({
    name: 'Other',
    instructions: 'x',
    model: new ScriptedModel(['from Other']),
  });
  return new Agency({
    entryPoints: [ceo, other],
    communicationFlows: [[ceo, dev]],
    threads: new ThreadManager(),
  });
}

let warnings: string[];
beforeEach(() => {
  resetCompletionWarnings();
  warnings = [];
  vi.spyOn(process, 'emitWarning').mockImplementation(((message: string | Error) => {
    warnings.push(String(message));
  }) as typeof process.emitWarning);
});
afterEach(() => vi.restoreAllMocks());

describe('agency-swarm completion wrappers (deprecated)', () => {
  it('getCompletion returns the final output text and warns once per process, naming getResponse', async () => {
    const agency = build();
    expect(await agency.getCompletion('Ship the feature')).toBe('Dev says: built and tested');
    expect(await agency.getCompletion('Again')).toBe('Second answer.');
    expect(warnings).toEqual([
      'agency.getCompletion() is deprecated (kept for agency-swarm projects): use agency.getResponse() instead.',
    ]);
    const emitted = vi.mocked(process.emitWarning).mock.calls[0]![1];
    expect(emitted).toMatchObject({ type: 'DeprecationWarning', code: 'COLLOQUY_GET_COMPLETION' });
  });

  it('takes recipientAgent by name or as the agent, as agency-swarm did', async () => {
    const agency = build();
    expect(await agency.getCompletion('hi', { recipientAgent: 'Other' })).toBe('from Other');
    const again = build();
    expect(await again.getCompletion('hi', { recipientAgent: again.agents.get('Other')! })).toBe(
      'from Other',
    );
  });

  it('getCompletionStream yields the entry point text deltas only, and warns once naming getResponseStream', async () => {
    const agency = build();
    const deltas: string[] = [];
    for await (const delta of agency.getCompletionStream('Ship the feature')) deltas.push(delta);
    expect(deltas.join('')).toBe('Dev says: built and tested');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.every((d) => d.length <= 4)).toBe(true);
    const more: string[] = [];
    for await (const delta of agency.getCompletionStream('Again')) more.push(delta);
    expect(more.join('')).toBe('Second answer.');
    expect(warnings).toEqual([
      'agency.getCompletionStream() is deprecated (kept for agency-swarm projects): use agency.getResponseStream() instead.',
    ]);
  });

  it('getCompletionStream throws the call failure', async () => {
    const agency = build();
    await expect(
      (async () => {
        for await (const _ of agency.getCompletionStream('x', { recipient: 'Nobody' })) void _;
      })(),
    ).rejects.toThrow(/Nobody/);
  });
});
