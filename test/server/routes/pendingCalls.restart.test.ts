/**
 * Stopped calls live in the agency's thread store, not in the server's memory: a client tool call
 * (AG-UI, `/v1`) or a tool approval (AI SDK UI messages) handed out by one server is answered on a
 * new server opened on the same SQLite file, and the run continues there. A stopped call is taken
 * once: a second answer to it is refused.
 */
import path from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createFrontdesk } from '../../../examples/frontends/agency.js';
import { createRegistry } from '../../../src/server/registry.js';
import { startServer } from '../../../src/server/serve.js';
import { PendingCalls } from '../../../src/server/pendingCalls.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { SqliteStore } from '../../../src/stores/sqlite.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { post, tempDir } from '../helpers.js';

/** A server with the frontdesk agency on the SQLite file `file`; `close` ends it and the store. */
async function open(file: string) {
  const store = new SqliteStore({ path: file });
  const { agency, deletedYears } = createFrontdesk({ threads: new ThreadManager({ store }) });
  const registry = createRegistry({ agencies: [agency], store, ownsStore: true });
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    registry,
    handleSignals: false,
    gracePeriodMs: 500,
    env: {},
  });
  return {
    url: server.url,
    deletedYears,
    close: async () => {
      await server.close();
      await registry.close();
    },
  };
}

/** The chunks of a UI message stream body. */
function chunksOf(body: string): Array<{ type: string; approvalId?: string; delta?: string }> {
  // Each SSE record's data line (records may start with an `id:` line).
  return body
    .split('\n\n')
    .map((record) => record.split('\n').find((line) => line.startsWith('data: {')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice(6)) as { type: string });
}

const setTheme = {
  name: 'set_theme',
  description: 'Sets the page theme.',
  parameters: { type: 'object', properties: { theme: { type: 'string' } } },
};

describe('stopped calls survive a server restart', () => {
  it('AG-UI: a frontend tool call is answered on the next server', async () => {
    const file = path.join(tempDir(), 'threads.db');
    const first = await open(file);
    const agent = new HttpAgent({ url: `${first.url}/agencies/frontdesk/ag-ui`, threadId: 'r1' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'make it dark' });
    const called = await agent.runAgent({ tools: [setTheme] });
    const call = called.newMessages.flatMap((m) =>
      m.role === 'assistant' ? (m.toolCalls ?? []) : [],
    )[0]!;
    expect(call.function.name).toBe('set_theme');
    await first.close();

    const second = await open(file);
    try {
      const resumed = new HttpAgent({
        url: `${second.url}/agencies/frontdesk/ag-ui`,
        threadId: 'r1',
        initialMessages: [
          ...agent.messages,
          { id: 't1', role: 'tool', toolCallId: call.id, content: 'theme is now dark' },
        ],
      });
      let text = '';
      await resumed.runAgent(
        { tools: [setTheme] },
        {
          onTextMessageContentEvent: ({ event }) => {
            text += event.delta;
          },
        },
      );
      expect(text).toBe('Desk: theme is now dark');
    } finally {
      await second.close();
    }
  });

  it('/v1 chat completions: the tool result continues the run on the next server', async () => {
    const file = path.join(tempDir(), 'threads.db');
    const first = await open(file);
    const tools = [{ type: 'function' as const, function: setTheme }];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'go light' }];
    const client = (url: string) =>
      new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const reply = await client(first.url).chat.completions.create({
      model: 'frontdesk',
      messages,
      tools,
    });
    const toolCall = reply.choices[0]!.message.tool_calls![0]!;
    expect(reply.choices[0]!.finish_reason).toBe('tool_calls');
    await first.close();

    const second = await open(file);
    try {
      const answered = [
        ...messages,
        reply.choices[0]!.message,
        { role: 'tool' as const, tool_call_id: toolCall.id, content: 'light theme on' },
      ];
      const done = await client(second.url).chat.completions.create({
        model: 'frontdesk',
        messages: answered,
        tools,
      });
      expect(done.choices[0]!.message.content).toBe('Desk: light theme on');
      // Taken once: the same tool result again finds no call waiting.
      const again = await client(second.url)
        .chat.completions.create({ model: 'frontdesk', messages: answered, tools })
        .catch((e: unknown) => e);
      expect(again).toBeInstanceOf(OpenAI.BadRequestError);
    } finally {
      await second.close();
    }
  });

  it('UI messages: an approval asked by one server is answered on the next', async () => {
    const file = path.join(tempDir(), 'threads.db');
    const first = await open(file);
    const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'delete 2016' }] };
    const asked = await post(`${first.url}/agencies/frontdesk/ui-messages`, {
      id: 'r3',
      messages: [user],
    });
    const approvalId = chunksOf(await asked.text()).find(
      (c) => c.type === 'tool-approval-request',
    )!.approvalId!;
    await first.close();

    const second = await open(file);
    try {
      const answer = {
        id: 'a1',
        role: 'assistant',
        parts: [
          {
            type: 'dynamic-tool',
            toolName: 'delete_reports',
            toolCallId: approvalId,
            state: 'approval-responded',
            input: { year: 2016 },
            approval: { id: approvalId, approved: true },
          },
        ],
      };
      const done = await post(`${second.url}/agencies/frontdesk/ui-messages`, {
        id: 'r3',
        messages: [user, answer],
      });
      const text = chunksOf(await done.text())
        .filter((c) => c.type === 'text-delta')
        .map((c) => c.delta)
        .join('');
      expect(text).toBe('Desk: Clerk: deleted the 2016 reports');
      expect(second.deletedYears).toEqual([2016]);
    } finally {
      await second.close();
    }
  });
});

describe('PendingCalls', () => {
  it('keeps one call per chat, finds it by client call id, and gives it out once', async () => {
    const store = new MemoryStore();
    const calls = new PendingCalls((agency) => (agency === 'a' ? store : undefined));
    const call = (id: string) => ({
      agency: 'a',
      state: `state-${id}`,
      approvals: [],
      clientCalls: [{ callId: id, toolName: 't', arguments: '{}', agent: 'A' }],
      clientTools: [{ name: 't' }],
    });
    await calls.set('chat', call('c1'));
    await calls.set('chat', call('c2')); // replaces the first
    expect(await calls.chatOfCall('a', 'c1')).toBeUndefined();
    expect(await calls.chatOfCall('a', 'c2')).toBe('chat');
    expect(await calls.chatOfCall('b', 'c2')).toBeUndefined();
    const taken = await Promise.all([calls.take('a', 'chat'), calls.take('a', 'chat')]);
    expect(taken.filter(Boolean).map((c) => c!.state)).toEqual(['state-c2']);
    expect(await calls.get('a', 'chat')).toBeUndefined();
    expect(await calls.chatOfCall('a', 'c2')).toBeUndefined();
    // Records are outside any chat: listing a chat's threads never shows them.
    expect(await store.listThreads({ chatId: 'chat' })).toEqual([]);
  });
});
