/**
 * `POST /agencies/:name/ag-ui` driven by the official `@ag-ui/client` HttpAgent against a loopback
 * server: text and steps of nested runs, a second run of the chat adds one user message, a tool
 * approval interrupts and resumes, and a frontend tool is called and answered by the client.
 */
import { HttpAgent, type BaseEvent } from '@ag-ui/client';
import { describe, expect, it } from 'vitest';
import { createFrontdesk } from '../../../examples/frontends/agency.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { listen, post } from '../helpers.js';

async function setup() {
  const store = new MemoryStore();
  const { agency, deletedYears } = createFrontdesk({ threads: new ThreadManager({ store }) });
  const server = await listen({ agencies: [agency], demo: false });
  const url = `${server.url}/agencies/frontdesk/ag-ui`;
  return { store, deletedYears, url };
}

/** Runs the agent and collects the events it received. */
async function run(agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0] = {}) {
  const events: BaseEvent[] = [];
  const result = await agent.runAgent(parameters, {
    onEvent: ({ event }) => {
      events.push(event);
    },
  });
  return { events, result };
}

const ofType = (events: BaseEvent[], type: string) => events.filter((e) => e.type === type);
const text = (events: BaseEvent[]) =>
  ofType(events, 'TEXT_MESSAGE_CONTENT')
    .map((e) => (e as unknown as { delta: string }).delta)
    .join('');

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { path?: string; code: string } }).error;

describe('AG-UI route', () => {
  it('streams the answer, nested runs as steps, and adds one user message per run', async () => {
    const { store, url } = await setup();
    const agent = new HttpAgent({ url, threadId: 'chat-agui' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'tides' });
    const first = await run(agent);
    expect(first.events[0]!.type).toBe('RUN_STARTED');
    expect(first.events.at(-1)!.type).toBe('RUN_FINISHED');
    const steps = ofType(first.events, 'STEP_STARTED').map(
      (e) => (e as unknown as { stepName: string }).stepName,
    );
    expect(steps).toEqual(['user → Desk', 'Desk → Writer']);
    expect(ofType(first.events, 'STEP_FINISHED')).toHaveLength(2);
    expect(text(first.events)).toBe('Desk: Writer wrote about tides.');
    const toolStarts = ofType(first.events, 'TOOL_CALL_START');
    expect(toolStarts.map((e) => (e as unknown as { toolCallName: string }).toolCallName)).toEqual([
      'send_message',
    ]);
    expect(ofType(first.events, 'TOOL_CALL_RESULT')).toHaveLength(1);

    // The client resends the whole history: only the new user message joins the chat.
    agent.addMessage({ id: 'u2', role: 'user', content: 'waves' });
    const second = await run(agent);
    expect(text(second.events)).toBe('Desk: Writer wrote about waves.');
    const [thread] = await store
      .listThreads({ chatId: 'chat-agui' })
      .then((threads) => threads.filter((t) => t.threadId.endsWith('USER')));
    const items = await store.readItems(thread!.threadId);
    const userTexts = items
      .map((i) => i.item as { role?: string; content?: unknown })
      .filter((i) => i.role === 'user')
      .map((i) => i.content);
    expect(userTexts).toEqual(['tides', 'waves']);
  });

  it('ends a run that needs approval with an interrupt, and resumes with the decision', async () => {
    const { deletedYears, url } = await setup();
    const agent = new HttpAgent({ url, threadId: 'chat-approve' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'delete the 2019 reports' });
    const stopped = await run(agent);
    const finished = stopped.events.at(-1) as unknown as {
      type: string;
      outcome: { type: string; interrupts: Array<{ id: string; reason: string }> };
    };
    expect(finished.type).toBe('RUN_FINISHED');
    expect(finished.outcome.type).toBe('interrupt');
    expect(finished.outcome.interrupts[0]!.reason).toBe('tool_approval');
    expect(agent.pendingInterrupts).toHaveLength(1);
    expect(deletedYears).toEqual([]);

    const resumed = await run(agent, {
      resume: [
        {
          interruptId: agent.pendingInterrupts[0]!.id,
          status: 'resolved',
          payload: { approved: true },
        },
      ],
    });
    expect(deletedYears).toEqual([2019]);
    expect(text(resumed.events)).toBe('Desk: Clerk: deleted the 2019 reports');
    expect(agent.pendingInterrupts).toEqual([]);
  });

  it('a rejected interrupt does not run the tool', async () => {
    const { deletedYears, url } = await setup();
    const agent = new HttpAgent({ url, threadId: 'chat-reject' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'delete 2018' });
    await run(agent);
    const resumed = await run(agent, {
      resume: [{ interruptId: agent.pendingInterrupts[0]!.id, status: 'cancelled' }],
    });
    expect(deletedYears).toEqual([]);
    expect(resumed.events.at(-1)!.type).toBe('RUN_FINISHED');
  });

  it('gives frontend tools to the entry point; the client runs them and the run continues', async () => {
    const { url } = await setup();
    const agent = new HttpAgent({ url, threadId: 'chat-tools' });
    const tools = [
      {
        name: 'set_theme',
        description: 'Sets the page theme.',
        parameters: { type: 'object', properties: { theme: { type: 'string' } } },
      },
    ];
    agent.addMessage({ id: 'u1', role: 'user', content: 'make it dark' });
    const called = await run(agent, { tools });
    const start = ofType(called.events, 'TOOL_CALL_START')[0] as unknown as {
      toolCallId: string;
      toolCallName: string;
    };
    expect(start.toolCallName).toBe('set_theme');
    const args = ofType(called.events, 'TOOL_CALL_ARGS')[0] as unknown as { delta: string };
    expect(JSON.parse(args.delta)).toEqual({ theme: 'dark' });
    const finished = called.events.at(-1) as unknown as {
      outcome: { type: string; pendingToolCallIds: string[] };
    };
    expect(finished.outcome).toEqual({ type: 'success', pendingToolCallIds: [start.toolCallId] });

    agent.addMessage({
      id: 't1',
      role: 'tool',
      toolCallId: start.toolCallId,
      content: 'theme is now dark',
    });
    const answered = await run(agent, { tools });
    expect(text(answered.events)).toBe('Desk: theme is now dark');
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const { url } = await setup();
    const missing = await post(url, { runId: 'r', messages: [] });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).path).toBe('threadId');
    const noUser = await post(url, { threadId: 't', runId: 'r', messages: [] });
    expect(noUser.status).toBe(400);
    expect((await errorOf(noUser)).path).toBe('messages');
    const clash = await post(url, {
      threadId: 't',
      runId: 'r',
      messages: [{ id: 'u', role: 'user', content: 'hi' }],
      tools: [{ name: 'send_message' }],
    });
    expect(clash.status).toBe(400);
    expect((await errorOf(clash)).path).toBe('tools.0.name');
    const stale = await post(url, {
      threadId: 't',
      runId: 'r',
      messages: [],
      resume: [{ interruptId: 'x', status: 'resolved' }],
    });
    expect((await errorOf(stale)).path).toBe('resume');
  });
});
