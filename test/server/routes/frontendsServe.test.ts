/**
 * Must-show 1 of the frontends issue: the real `colloquy serve` (a child process on loopback)
 * serving examples/frontends, driven by each protocol's official client: `@ag-ui/client`, `ai`
 * (DefaultChatTransport), `@modelcontextprotocol/sdk` over Streamable HTTP and over stdio
 * (`colloquy mcp --config`, the same config), `openai` and `@langchain/openai`. For each: the
 * desk's answer arrives, a second request continues the same chat (read back from the server),
 * and, where the protocol has a place for them, nested runs show as steps/parts and an approval
 * interrupts and resumes. `/v1` has neither: an approval there is a 400 naming the routes that can.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { ChatOpenAI } from '@langchain/openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../../cli/spawnCli.js';

const example = fileURLToPath(new URL('../../../examples/frontends/agencies.ts', import.meta.url));
let child: ChildProcess;
let url = '';
let dir = '';
let config = '';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'colloquy-frontends-'));
  config = path.join(dir, 'colloquy.yaml');
  writeFileSync(config, `store: sqlite:${path.join(dir, 'store.db')}\nagencies: ${example}\n`);
  child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--config', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, COLLOQUY_API_KEY: '', COLLOQUY_DB: path.join(dir, 'agency.db') },
  });
  let stdout = '';
  url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match && stdout.includes('try:')) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The user messages the server holds for a chat (its entry point's thread). */
async function userMessages(chatId: string): Promise<unknown[]> {
  const { threads } = (await (await fetch(`${url}/chats/${chatId}/threads`)).json()) as {
    threads: Array<{ threadId: string }>;
  };
  const user = threads.find((t) => t.threadId.endsWith('USER'))!;
  const { items } = (await (await fetch(`${url}/threads/${user.threadId}`)).json()) as {
    items: Array<{ item: { role?: string; content?: unknown } }>;
  };
  return items.filter((i) => i.item.role === 'user').map((i) => i.item.content);
}

const DELETED = 'Desk: Clerk: deleted the 2019 reports';

describe('AG-UI (@ag-ui/client) against colloquy serve', () => {
  it('answers with steps, continues the chat, and resumes an approval', async () => {
    const agent = new HttpAgent({ url: `${url}/agencies/frontdesk/ag-ui`, threadId: 'serve-agui' });
    const run = async (parameters = {}) => {
      const events: BaseEvent[] = [];
      await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
      const text = events
        .filter((e) => e.type === 'TEXT_MESSAGE_CONTENT')
        .map((e) => (e as unknown as { delta: string }).delta)
        .join('');
      const steps = events
        .filter((e) => e.type === 'STEP_STARTED')
        .map((e) => (e as unknown as { stepName: string }).stepName);
      return { text, steps };
    };
    agent.addMessage({ id: 'u1', role: 'user', content: 'tides' });
    const first = await run();
    expect(first.steps).toEqual(['user → Desk', 'Desk → Writer']);
    expect(first.text).toBe('Desk: Writer wrote about tides.');
    agent.addMessage({ id: 'u2', role: 'user', content: 'waves' });
    expect((await run()).text).toBe('Desk: Writer wrote about waves.');
    expect(await userMessages('serve-agui')).toEqual(['tides', 'waves']);

    agent.addMessage({ id: 'u3', role: 'user', content: 'delete the 2019 reports' });
    expect((await run()).steps).toEqual(['user → Desk', 'Desk → Clerk']);
    const [interrupt] = agent.pendingInterrupts;
    expect(interrupt).toMatchObject({ reason: 'tool_approval' });
    const resumed = await run({
      resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }],
    });
    expect(resumed.text).toBe(DELETED);
  });
});

describe('AI SDK UI messages (ai DefaultChatTransport) against colloquy serve', () => {
  const transport = () =>
    new DefaultChatTransport<UIMessage>({ api: `${url}/agencies/frontdesk/ui-messages` });
  const send = async (chatId: string, messages: UIMessage[]) => {
    const stream = await transport().sendMessages({
      chatId,
      messages,
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const previous = messages.at(-1)!;
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({
      stream,
      ...(previous.role === 'assistant' ? { message: structuredClone(previous) } : {}),
    }))
      last = message;
    return last!;
  };
  const user = (id: string, text: string): UIMessage => ({
    id,
    role: 'user',
    parts: [{ type: 'text', text }],
  });
  const textOf = (m: UIMessage) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');

  it('answers with agent-run parts, continues the chat, and resumes an approval', async () => {
    const first = await send('serve-ui', [user('u1', 'tides')]);
    expect(textOf(first)).toBe('Desk: Writer wrote about tides.');
    const runs = first.parts.filter((p) => p.type === 'data-agent-run') as Array<{
      data: { caller: string; agent: string };
    }>;
    expect(runs.map((r) => `${r.data.caller} → ${r.data.agent}`)).toEqual(['Desk → Writer']);
    const second = await send('serve-ui', [user('u1', 'tides'), first, user('u2', 'waves')]);
    expect(textOf(second)).toBe('Desk: Writer wrote about waves.');
    expect(await userMessages('serve-ui')).toEqual(['tides', 'waves']);

    const history = [user('u1', 'tides'), first, user('u2', 'waves'), second];
    const asked = await send('serve-ui', [...history, user('u3', 'delete the 2019 reports')]);
    const part = asked.parts.find(
      (p) => p.type === 'dynamic-tool' && p.state === 'approval-requested',
    ) as { approval: { id: string } } | undefined;
    expect(part).toBeDefined();
    const answered: UIMessage = {
      ...asked,
      parts: asked.parts.map((p) =>
        p === (part as unknown)
          ? ({
              ...p,
              state: 'approval-responded',
              approval: { ...part!.approval, approved: true },
            } as never)
          : p,
      ),
    };
    const done = await send('serve-ui', [
      ...history,
      user('u3', 'delete the 2019 reports'),
      answered,
    ]);
    expect(textOf(done)).toBe(DELETED);
  });
});

type AskResult = {
  structuredContent: { answer: string; chatId: string; approvals?: Array<{ id: string }> };
};

/** Asks, continues the chat, and gets an approval through (by `approve`, or by elicitation). */
async function mcpConversation(client: Client, elicited: boolean) {
  const ask = async (args: Record<string, unknown>) =>
    ((await client.callTool({ name: 'ask_frontdesk', arguments: args })) as unknown as AskResult)
      .structuredContent;
  const first = await ask({ message: 'tides' });
  expect(first.answer).toBe('Desk: Writer wrote about tides.');
  const second = await ask({ message: 'waves', chatId: first.chatId });
  expect(second.answer).toBe('Desk: Writer wrote about waves.');
  expect(await userMessages(first.chatId)).toEqual(['tides', 'waves']);
  const asked = await ask({ message: 'delete the 2019 reports', chatId: first.chatId });
  if (elicited) {
    expect(asked.answer).toBe(DELETED);
    return;
  }
  expect(asked.approvals).toHaveLength(1);
  const done = await ask({ chatId: first.chatId, approve: [asked.approvals![0]!.id] });
  expect(done.answer).toBe(DELETED);
}

describe('MCP (@modelcontextprotocol/sdk) against colloquy serve', () => {
  it('over Streamable HTTP (POST /mcp): approvals continue with approve', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    try {
      await mcpConversation(client, false);
    } finally {
      await client.close();
    }
  });

  it('over stdio (colloquy mcp --config, the same config): approvals by elicitation', async () => {
    const client = new Client(
      { name: 'test', version: '1' },
      { capabilities: { elicitation: {} } },
    );
    let elicitations = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => {
      elicitations++;
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--config', config],
        cwd: dir,
        // The example's agency keeps its threads in COLLOQUY_DB: the same file as serve's.
        env: {
          ...(process.env as Record<string, string>),
          COLLOQUY_API_KEY: '',
          COLLOQUY_DB: path.join(dir, 'agency.db'),
        },
        stderr: 'pipe',
      }),
    );
    try {
      await mcpConversation(client, true);
      expect(elicitations).toBe(1);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('/v1 (openai, @langchain/openai) against colloquy serve', () => {
  it('openai: answers, continues by chat id header and previous_response_id; approvals are a 400', async () => {
    const chatId = 'serve-openai';
    const openai = new OpenAI({
      baseURL: `${url}/v1`,
      apiKey: 'unused',
      maxRetries: 0,
      defaultHeaders: { 'x-colloquy-chat-id': chatId },
    });
    const ask = (content: string) =>
      openai.chat.completions.create({ model: 'frontdesk', messages: [{ role: 'user', content }] });
    expect((await ask('stars')).choices[0]!.message.content).toBe(
      'Desk: Writer wrote about stars.',
    );
    await ask('moons');
    expect(await userMessages(chatId)).toEqual(['stars', 'moons']);
    const approval = await ask('delete the 2019 reports').catch((e: unknown) => e);
    expect(approval).toBeInstanceOf(OpenAI.BadRequestError);
    expect((approval as Error).message).toMatch(/\/ag-ui, \/ui-messages/);

    const plain = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const first = await plain.responses.create({ model: 'frontdesk', input: 'comets' });
    const second = await plain.responses.create({
      model: 'frontdesk',
      input: 'planets',
      previous_response_id: first.id,
    });
    expect(second.output_text).toBe('Desk: Writer wrote about planets.');
  });

  it('LangChain ChatOpenAI: answers and continues the chat by its header', async () => {
    const chatId = 'serve-langchain';
    const llm = new ChatOpenAI({
      model: 'frontdesk',
      apiKey: 'unused',
      maxRetries: 0,
      configuration: { baseURL: `${url}/v1`, defaultHeaders: { 'x-colloquy-chat-id': chatId } },
    });
    expect((await llm.invoke('rivers')).text).toBe('Desk: Writer wrote about rivers.');
    expect((await llm.invoke('lakes')).text).toBe('Desk: Writer wrote about lakes.');
    expect(await userMessages(chatId)).toEqual(['rivers', 'lakes']);
  });
});
