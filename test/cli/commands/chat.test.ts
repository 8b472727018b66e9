import { describe, expect, it } from 'vitest';
import type { Agency } from '../../../src/agency/agency.js';
import { CHAT_HELP, pickAgency, slashCommand } from '../../../src/cli/commands/chat.js';
import { createDemoAgency, DEMO_MESSAGE } from '../../../src/demo/demoAgency.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';

const demo = () => createDemoAgency({ threads: new ThreadManager({ store: new MemoryStore() }) });

async function run(agency: Agency, chatId: string, line: string) {
  const printed: string[] = [];
  const next = await slashCommand(agency, chatId, line, (text) => printed.push(text));
  return { next, printed };
}

describe('pickAgency', () => {
  it('returns the only agency, and names every export when there are several', () => {
    const one = demo();
    expect(pickAgency({ demo: one }, 'team.ts')).toBe(one);
    expect(() => pickAgency({ a: one, b: demo() }, 'team.ts')).toThrow(
      'team.ts exports 2 agencies (a, b). Pick one: colloquy chat team.ts#EXPORT.',
    );
    expect(() => pickAgency({}, 'empty.ts')).toThrow(/exports 0 agencies/);
  });
});

describe('slash commands', () => {
  it('/threads says when a chat has none yet, then lists them with item counts', async () => {
    const agency = demo();
    expect((await run(agency, 'c1', '/threads')).printed).toEqual(['No threads in chat c1 yet.']);
    await agency.getResponse(DEMO_MESSAGE, { chatId: 'c1' });
    const [listing] = (await run(agency, 'c1', '/threads')).printed;
    const [head, ...rows] = listing!.split('\n');
    expect(head).toMatch(/^thread +items$/);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toMatch(/^c1\S* +\d+$/);
  });

  it('/checkpoint then /rollback restores the chat, and /rollback needs an id', async () => {
    const agency = demo();
    await agency.getResponse('A brief about tides.', { chatId: 'c2' });
    const made = await run(agency, 'c2', '/checkpoint before waves');
    const id = /^checkpoint (\S+) \(roll back with \/rollback \1\)$/.exec(made.printed[0]!)![1]!;
    expect((await agency.checkpoints('c2')).map((c) => [c.checkpointId, c.label])).toEqual([
      [id, 'before waves'],
    ]);
    await agency.getResponse('A brief about waves.', { chatId: 'c2' });
    const rolledBack = await run(agency, 'c2', `/rollback ${id}`);
    expect(rolledBack).toEqual({ next: 'c2', printed: [`chat c2 is back at checkpoint ${id}`] });
    await expect(run(agency, 'c2', '/rollback')).rejects.toThrow(
      '/rollback needs a checkpoint id: /rollback ID.',
    );
  });

  it('/fork continues in a new chat and keeps the original', async () => {
    const agency = demo();
    await agency.getResponse(DEMO_MESSAGE, { chatId: 'c3' });
    const { next, printed } = await run(agency, 'c3', '/fork');
    expect(next).not.toBe('c3');
    expect(printed).toEqual([`forked: now in chat ${next} (the original c3 is kept)`]);
    const original = await agency.threads.store.listThreads({ chatId: 'c3' });
    const copy = await agency.threads.store.listThreads({ chatId: next });
    expect(copy).toHaveLength(original.length);
  });

  it('/trace says when there is no trace yet', async () => {
    const { printed } = await run(demo(), 'c4', '/trace');
    expect(printed).toEqual(['No trace of chat c4 yet.']);
  });

  it('/help prints the list, and an unknown command prints it after the name', async () => {
    expect((await run(demo(), 'c5', '/help')).printed).toEqual([CHAT_HELP.join('\n')]);
    const unknown = await run(demo(), 'c5', '  /frob  now ');
    expect(unknown.next).toBe('c5');
    expect(unknown.printed[0]!.startsWith('Unknown command /frob. ')).toBe(true);
  });
});
