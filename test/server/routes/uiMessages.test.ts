/**
 * `POST /agencies/:name/ui-messages` with the `ai` package's own `DefaultChatTransport` and
 * `readUIMessageStream`: the answer's text, nested runs as `data-agent-run` parts, one new user
 * message per request, an approval requested and answered, a client tool run by the page.
 */
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  readUIMessageStream,
  type UIMessage,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { createFrontdesk } from '../../../examples/frontends/agency.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { listen } from '../helpers.js';

async function setup() {
  const store = new MemoryStore();
  const { agency, deletedYears } = createFrontdesk({ threads: new ThreadManager({ store }) });
  const server = await listen({ agencies: [agency], demo: false });
  const transport = new DefaultChatTransport<UIMessage>({
    api: `${server.url}/agencies/frontdesk/ui-messages`,
  });
  /** Sends the messages and reads the assistant message the stream builds. */
  const send = async (chatId: string, messages: UIMessage[], body?: object) => {
    const stream = await transport.sendMessages({
      chatId,
      messages,
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
      ...(body ? { body } : {}),
    });
    // As useChat does: an answer to a tool call continues the last assistant message.
    const previous = messages.at(-1)!;
    const continued = previous.role === 'assistant' ? { message: structuredClone(previous) } : {};
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({
      stream,
      ...continued,
      onError: (error) => {
        throw error;
      },
    }))
      last = message;
    return last!;
  };
  return { store, deletedYears, send };
}

const user = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});
const textOf = (message: UIMessage) =>
  message.parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');

describe('AI SDK UI message stream route', () => {
  it('streams the answer with nested runs as data parts; a second request adds one message', async () => {
    const { store, send } = await setup();
    const first = await send('chat-ui', [user('u1', 'tides')]);
    expect(textOf(first)).toBe('Desk: Writer wrote about tides.');
    const runs = first.parts.filter((p) => p.type === 'data-agent-run') as Array<{
      data: { agent: string; caller: string; status: string };
    }>;
    expect(runs).toHaveLength(1);
    expect(runs[0]!.data).toMatchObject({ agent: 'Writer', caller: 'Desk', status: 'completed' });
    const tool = first.parts.find((p) => p.type === 'dynamic-tool') as {
      toolName: string;
      state: string;
    };
    expect(tool).toMatchObject({ toolName: 'send_message', state: 'output-available' });
    // The answer is a step after the delegation's: useChat's helpers do not send it back.
    expect(lastAssistantMessageIsCompleteWithToolCalls({ messages: [first] })).toBe(false);

    const second = await send('chat-ui', [user('u1', 'tides'), first, user('u2', 'waves')]);
    expect(textOf(second)).toBe('Desk: Writer wrote about waves.');
    const thread = (await store.listThreads({ chatId: 'chat-ui' })).find((t) =>
      t.threadId.endsWith('USER'),
    )!;
    const users = (await store.readItems(thread.threadId)).filter(
      (i) => (i.item as { role?: string }).role === 'user',
    );
    expect(users).toHaveLength(2);
  });

  it('asks for approval and continues with the answer', async () => {
    const { deletedYears, send } = await setup();
    const asked = await send('chat-ui-approve', [user('u1', 'delete 2017')]);
    const part = asked.parts.find(
      (p) => p.type === 'dynamic-tool' && p.toolName === 'delete_reports',
    ) as unknown as {
      toolName: string;
      state: string;
      approval: { id: string };
    };
    expect(part).toMatchObject({ toolName: 'delete_reports', state: 'approval-requested' });
    expect(deletedYears).toEqual([]);
    const answered: UIMessage = {
      ...asked,
      parts: asked.parts.map((p) =>
        p === (part as unknown)
          ? ({
              ...part,
              state: 'approval-responded',
              approval: { id: part.approval.id, approved: true },
            } as never)
          : p,
      ),
    };
    // The approval is in a step of its own: useChat's helper sends the answer by itself.
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: [asked] })).toBe(false);
    expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: [answered] })).toBe(
      true,
    );
    const done = await send('chat-ui-approve', [user('u1', 'delete 2017'), answered]);
    expect(deletedYears).toEqual([2017]);
    expect(textOf(done)).toBe('Desk: Clerk: deleted the 2017 reports');
  });

  it('lets the page run a client tool and continues with its output', async () => {
    const { send } = await setup();
    const tools = [{ name: 'set_theme', parameters: { type: 'object', properties: {} } }];
    const called = await send('chat-ui-tool', [user('u1', 'go light')], { tools });
    const part = called.parts.find((p) => p.type === 'dynamic-tool') as unknown as {
      toolName: string;
      toolCallId: string;
      state: string;
      input: unknown;
    };
    expect(part).toMatchObject({ toolName: 'set_theme', state: 'input-available' });
    expect(part.input).toEqual({ theme: 'light' });
    const answered: UIMessage = {
      ...called,
      parts: called.parts.map((p) =>
        p === (part as unknown)
          ? ({ ...part, state: 'output-available', output: 'light theme on' } as never)
          : p,
      ),
    };
    expect(lastAssistantMessageIsCompleteWithToolCalls({ messages: [answered] })).toBe(true);
    const done = await send('chat-ui-tool', [user('u1', 'go light'), answered], { tools });
    expect(textOf(done)).toBe('Desk: light theme on');
  });
});
