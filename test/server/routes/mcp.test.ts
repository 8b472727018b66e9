/**
 * The MCP server with the official `@modelcontextprotocol/sdk` client: over Streamable HTTP
 * (`POST /mcp` on a loopback server) and over stdio (`colloquy mcp MODULE` in a child process).
 * Each agency is `ask_<agency>` (the chat continues with the returned chatId), each ensemble
 * `run_<ensemble>` with progress notifications. A tool approval is asked by elicitation over
 * stdio (when the client supports it); over stateless HTTP the answer lists the approvals and a
 * second call with `approve` continues the stopped call.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createFrontdesk } from '../../../examples/frontends/agency.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { BIN } from '../../cli/spawnCli.js';
import { listen, tempDir } from '../helpers.js';

const ensembles = fileURLToPath(new URL('../fixtures/project/ensembles', import.meta.url));
const example = fileURLToPath(new URL('../../../examples/frontends/agencies.ts', import.meta.url));

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

type AskResult = {
  structuredContent?: {
    answer: string;
    chatId: string;
    usage: { requests: number };
    approvals?: Array<{ id: string; agent: string; tool: string; arguments: string }>;
  };
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
};

async function httpClient() {
  const store = new MemoryStore();
  const { agency, deletedYears } = createFrontdesk({ threads: new ThreadManager({ store }) });
  const server = await listen({ agencies: [agency], demo: false, ensembles });
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  clients.push(client);
  return { client, store, deletedYears };
}

describe('MCP over Streamable HTTP (POST /mcp)', () => {
  it('lists a tool per agency and per ensemble', async () => {
    const { client } = await httpClient();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('ask_frontdesk');
    expect(names.some((name) => name.startsWith('run_'))).toBe(true);
    const ask = tools.find((tool) => tool.name === 'ask_frontdesk')!;
    expect(Object.keys(ask.inputSchema.properties ?? {})).toEqual([
      'message',
      'chatId',
      'approve',
      'reject',
    ]);
    expect(ask.outputSchema).toBeDefined();
  });

  it('answers with text and structured content; passing chatId back continues the chat', async () => {
    const { client, store } = await httpClient();
    const first = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { message: 'tides' },
    })) as AskResult;
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent!.answer).toBe('Desk: Writer wrote about tides.');
    expect(first.content[0]!.text).toBe('Desk: Writer wrote about tides.');
    expect(first.structuredContent!.usage.requests).toBeGreaterThan(0);
    const chatId = first.structuredContent!.chatId;
    const second = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { message: 'waves', chatId },
    })) as AskResult;
    expect(second.structuredContent!.chatId).toBe(chatId);
    const threads = await store.listThreads({ chatId });
    expect(threads.length).toBeGreaterThan(0);
    const user = threads.find((t) => t.threadId.endsWith('USER'))!;
    const items = await store.readItems(user.threadId);
    expect(items.filter((i) => (i.item as { role?: string }).role === 'user')).toHaveLength(2);
  });

  it('runs an ensemble and reports progress', async () => {
    const { client } = await httpClient();
    const { tools } = await client.listTools();
    const run = tools.find((tool) => tool.name.startsWith('run_'))!;
    const progress: number[] = [];
    const result = (await client.callTool({ name: run.name, arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    })) as AskResult;
    expect(result.isError).toBeFalsy();
    expect(result.content[0]!.text).toMatch(/completion_reason/);
    expect(progress.length).toBeGreaterThan(1);
  });

  it('a call that needs approval lists it; calling again with approve continues it', async () => {
    const { client, deletedYears } = await httpClient();
    const asked = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { message: 'delete 2020' },
    })) as AskResult;
    expect(asked.isError).toBeFalsy();
    const { approvals, chatId } = asked.structuredContent!;
    expect(approvals).toEqual([
      {
        id: expect.any(String),
        agent: 'Clerk',
        tool: 'delete_reports',
        arguments: '{"year":2020}',
      },
    ]);
    expect(asked.content[0]!.text).toMatch(/^Approval needed: Clerk wants to run delete_reports/);
    expect(deletedYears).toEqual([]);
    const done = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { chatId, approve: [approvals![0]!.id] },
    })) as AskResult;
    expect(done.structuredContent!.answer).toBe('Desk: Clerk: deleted the 2020 reports');
    expect(deletedYears).toEqual([2020]);
    // Answered once: the same approval again is a tool error saying nothing waits.
    const again = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { chatId, approve: [approvals![0]!.id] },
    })) as AskResult;
    expect(again.isError).toBe(true);
    expect(again.content[0]!.text).toMatch(/No approval waits on chat/);
  });

  it('a rejected approval does not run the tool', async () => {
    const { client, deletedYears } = await httpClient();
    const asked = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { message: 'delete 2021' },
    })) as AskResult;
    const { approvals, chatId } = asked.structuredContent!;
    const done = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { chatId, reject: [approvals![0]!.id] },
    })) as AskResult;
    expect(done.isError).toBeFalsy();
    expect(deletedYears).toEqual([]);
  });
});

describe('colloquy mcp (stdio)', () => {
  it('serves the module given, and continues a chat by chatId', async () => {
    const cwd = tempDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', example],
      cwd,
      env: { ...(process.env as Record<string, string>), COLLOQUY_DB: path.join(cwd, 'db.sqlite') },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('ask_frontdesk');
    const first = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { message: 'tides' },
    })) as AskResult;
    expect(first.structuredContent!.answer).toBe('Desk: Writer wrote about tides.');
    const second = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { message: 'waves', chatId: first.structuredContent!.chatId },
    })) as AskResult;
    expect(second.structuredContent!.answer).toBe('Desk: Writer wrote about waves.');
  }, 60_000);

  it('asks a tool approval by elicitation when the client supports it', async () => {
    const cwd = tempDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', example],
      cwd,
      env: { ...(process.env as Record<string, string>), COLLOQUY_DB: path.join(cwd, 'db.sqlite') },
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'test', version: '1' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approve: !request.params.message.includes('1999') } };
    });
    await client.connect(transport);
    clients.push(client);
    const approved = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { message: 'delete 2020' },
    })) as AskResult;
    expect(asked).toEqual(['Clerk wants to run delete_reports({"year":2020}). Approve?']);
    expect(approved.structuredContent!.answer).toBe('Desk: Clerk: deleted the 2020 reports');
    expect(approved.structuredContent!.approvals).toBeUndefined();
    const declined = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { message: 'delete 1999' },
    })) as AskResult;
    expect(asked).toHaveLength(2);
    expect(declined.structuredContent!.answer).toMatch(/^Desk: Clerk: /);
    expect(declined.structuredContent!.answer).not.toMatch(/deleted the 1999/);
  }, 60_000);
});
