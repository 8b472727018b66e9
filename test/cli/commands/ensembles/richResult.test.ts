import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  oneLine,
  renderRichResult,
  RICH_MAX_LINES,
  valueLines,
} from '../../../../src/cli/commands/ensembles/richResult.js';
import { colourEnabled, painter } from '../../../../src/cli/style.js';
import type { ConversationResult } from '../../../../src/ensembles/result.js';

const result: ConversationResult = {
  run_id: 'r1',
  final_state: { review: { satisfied: true, notes: ['short'] } },
  conversation_history: [],
  turn_count: 0,
  completion_reason: 'completed',
  usage: { requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  agent_execution_count: {},
};

describe('rich values', () => {
  it('shows text as text, JSON objects (also inside strings) as YAML, and cuts long ones', () => {
    expect(valueLines('line one\nline two')).toEqual(['line one', 'line two']);
    expect(valueLines('{"draft":3,"ok":true}')).toEqual(['draft: 3', 'ok: true']);
    expect(valueLines({ list: [1, 2] })).toEqual(['list:', '  - 1', '  - 2']);
    const long = valueLines({ items: Array.from({ length: 30 }, (_, i) => i) });
    expect(long).toHaveLength(RICH_MAX_LINES + 1);
    expect(long.at(-1)).toBe('… 11 more lines (--output json shows all)');
    expect(valueLines('{not json')).toEqual(['{not json']);
  });

  it('puts a value on one line for the turns table, cut with an ellipsis', () => {
    expect(oneLine({ draft: 1, summary: 'Sales rose.' })).toBe(
      '{ draft: 1, summary: Sales rose. }',
    );
    expect(oneLine('first\nsecond')).toBe('first second');
    expect(oneLine('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('colour', () => {
  it('is on for a terminal only, off with NO_COLOR or TERM=dumb, forced by FORCE_COLOR', () => {
    expect(colourEnabled({ isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ isTTY: false }, {})).toBe(false);
    expect(colourEnabled({}, {})).toBe(false);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colourEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(true);
  });

  it('colours the rich result only when the painter is on', () => {
    const plain = renderRichResult(result, painter({ isTTY: false }, {})).join('\n');
    const coloured = renderRichResult(result, painter({ isTTY: true }, {})).join('\n');
    // eslint-disable-next-line no-control-regex
    expect(plain).not.toMatch(/\x1b\[/);
    expect(coloured).toContain('\x1b[32m✓ completed\x1b[39m');
    expect(stripVTControlCharacters(coloured)).toBe(plain);
    expect(plain).toBe(
      [
        '✓ completed  0 turns · 0 requests, 0 tokens · run r1',
        '',
        'Final state',
        '  review:',
        '    satisfied: true',
        '    notes:',
        '      - short',
      ].join('\n'),
    );
  });
});
