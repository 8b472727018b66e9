/**
 * The frontend protocols against the real `colloquy serve` (a child process on loopback) serving
 * examples/frontends: AG-UI (`@ag-ui/client`), MCP over HTTP (`@modelcontextprotocol/sdk`) and
 * `/v1` (`openai`) each get the demo agency's answer, with the nested run visible.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../../cli/spawnCli.js';

const example = fileURLToPath(new URL('../../../examples/frontends/agencies.ts', import.meta.url));
let child: ChildProcess;
let url = '';
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'colloquy-frontends-'));
  const config = path.join(dir, 'colloquy.yaml');
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

describe('examples/frontends behind colloquy serve', () => {
  it('AG-UI: the answer arrives with the nested run as a step', async () => {
    const agent = new HttpAgent({ url: `${url}/agencies/frontdesk/ag-ui`, threadId: 'serve-1' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'tides' });
    const events: BaseEvent[] = [];
    await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
    const steps = events
      .filter((e) => e.type === 'STEP_STARTED')
      .map((e) => (e as unknown as { stepName: string }).stepName);
    expect(steps).toEqual(['user → Desk', 'Desk → Writer']);
    expect(agent.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Desk: Writer wrote about tides.',
    });
  });

  it('MCP over HTTP and the OpenAI endpoint answer too', async () => {
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    const result = (await client.callTool({
      name: 'ask_frontdesk',
      arguments: { message: 'waves' },
    })) as unknown as { structuredContent: { answer: string } };
    expect(result.structuredContent.answer).toBe('Desk: Writer wrote about waves.');
    await client.close();
    const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const reply = await openai.chat.completions.create({
      model: 'frontdesk',
      messages: [{ role: 'user', content: 'stars' }],
    });
    expect(reply.choices[0]!.message.content).toBe('Desk: Writer wrote about stars.');
  });
});
