import type { AgentInputItem } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import type { AgencyResponse, TaggedItem } from '../../src/agency/result.js';
import type { Usage } from '../../src/usage.js';
import { renderHistory, renderTranscript, renderUsage } from '../../src/cli/transcript.js';
import type { ThreadItem } from '../../src/stores/item.js';

const tagged = (
  agent: string,
  depth: number,
  item: Record<string, unknown>,
  callerAgent: string | null = null,
): TaggedItem => ({
  agent,
  callerAgent,
  runId: `r-${agent}`,
  parentRunId: null,
  depth,
  item: item as unknown as AgentInputItem,
});

const response = (newItems: TaggedItem[]): AgencyResponse => ({
  finalOutput: '',
  chatId: 'c',
  lastAgent: 'Coordinator',
  newItems,
  usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
});

const send = (recipient: string, message: string) => ({
  type: 'function_call',
  name: 'send_message',
  callId: 'c1',
  arguments: JSON.stringify({ recipient, message }),
});
const say = (text: string) => ({
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});

describe('renderTranscript', () => {
  it('nests a delegation and its answer under the caller, by depth', () => {
    const lines = renderTranscript(
      'Write a brief.',
      response([
        tagged('Coordinator', 0, send('Writer', 'Draft it.')),
        tagged('Writer', 1, say('Here is the draft.'), 'Coordinator'),
        tagged('Coordinator', 0, {
          type: 'function_call_result',
          name: 'send_message',
          callId: 'c1',
          output: 'Here is the draft.',
        }),
        tagged('Coordinator', 0, say('Done.')),
      ]),
      'Coordinator',
    );
    expect(lines).toEqual([
      'user → Coordinator: Write a brief.',
      '  Coordinator → Writer: Draft it.',
      '    Writer → Coordinator: Here is the draft.',
      '  Coordinator → user: Done.',
    ]);
  });

  it('shows other tool calls and their results, and indents continuation lines', () => {
    const lines = renderTranscript(
      'hi',
      response([
        tagged('A', 0, {
          type: 'function_call',
          name: 'lookup',
          callId: 'x',
          arguments: '{"q":1}',
        }),
        tagged('A', 0, {
          type: 'function_call_result',
          name: 'lookup',
          callId: 'x',
          output: { hits: 2 },
        }),
        tagged('A', 0, { role: 'assistant', content: 'line one\nline two' }),
      ]),
      'A',
    );
    expect(lines).toEqual([
      'user → A: hi',
      '  A calls lookup({"q":1})',
      '  lookup → {"hits":2}',
      '  A → user: line one',
      '    line two',
    ]);
  });

  it('survives send_message arguments that are not JSON', () => {
    const lines = renderTranscript(
      'hi',
      response([
        tagged('A', 0, {
          type: 'function_call',
          name: 'send_message',
          callId: 'x',
          arguments: '{oops',
        }),
      ]),
      'A',
    );
    expect(lines[1]).toBe('  A → undefined: undefined');
  });

  it('leaves out user items and reasoning it does not know how to show', () => {
    const lines = renderTranscript(
      'hi',
      response([
        tagged('A', 0, { role: 'user', content: 'echo' }),
        tagged('A', 0, { type: 'reasoning' }),
      ]),
      'A',
    );
    expect(lines).toEqual(['user → A: hi']);
  });
});

describe('renderHistory', () => {
  const item = (body: Record<string, unknown>, id: string): ThreadItem =>
    ({ id, item: body }) as unknown as ThreadItem;

  it('lists user messages, delegations and answers of an entry thread', () => {
    expect(
      renderHistory(
        [
          item({ role: 'user', content: 'first question' }, '1'),
          item(send('Researcher', 'Find facts.'), '2'),
          item({ type: 'function_call_result', name: 'send_message', output: 'facts' }, '3'),
          item(say('answer\nsecond line'), '4'),
        ],
        'Coordinator',
      ),
    ).toEqual([
      'user → Coordinator: first question',
      '  Coordinator → Researcher: Find facts.',
      '  Coordinator → user: answer',
      '    second line',
    ]);
  });

  it('is empty for an empty thread', () => {
    expect(renderHistory([], 'A')).toEqual([]);
  });
});

describe('renderUsage', () => {
  const usage = (requests: number, input: number, output: number, costPico?: number): Usage => ({
    requests,
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + output,
    ...(costPico === undefined ? {} : { costPico, cost: costPico / 1e12 }),
  });

  it('prints a row per agent and a total, aligned, without a cost column when unpriced', () => {
    const lines = renderUsage(new Map([['Writer', usage(2, 20, 10)]]), usage(2, 20, 10));
    expect(lines).toEqual([
      'agent   requests  input  output  total',
      'Writer         2     20      10     30',
      'total          2     20      10     30',
    ]);
  });

  it('adds a cost column, with - for agents without a price, and fits long names', () => {
    const long = 'Coordinator-of-a-very-long-named-department';
    const lines = renderUsage(
      new Map([
        [long, usage(1, 10, 5, 1_500_000)],
        ['Editor', usage(1, 10, 5)],
      ]),
      usage(2, 20, 10, 1_500_000),
    );
    expect(lines[0]!.endsWith('  cost')).toBe(true);
    expect(lines[1]!.startsWith(`${long}  `)).toBe(true);
    expect(lines[1]!.endsWith('  $0.000002')).toBe(true);
    expect(lines[2]!.endsWith('          -')).toBe(true);
    expect(lines[3]!.startsWith('total ')).toBe(true);
    for (const line of lines) expect(line.length).toBe(lines[0]!.length);
  });
});
