import { describe, expect, it } from 'vitest';
import { agencyToMermaid } from '../../src/agency/mermaid.js';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

describe('agency.toMermaid()', () => {
  it('draws the user, the entry points and one arrow per flow', async () => {
    const agency = createDemoAgency({ threads: new ThreadManager({ store: new MemoryStore() }) });
    expect(agency.toMermaid()).toBe(
      [
        'flowchart TD',
        '  user(["User"])',
        '  a0["Coordinator"]',
        '  a1["Researcher"]',
        '  a2["Writer"]',
        '  a3["Editor"]',
        '  user --> a0',
        '  a0 -->|send_message| a1',
        '  a0 -->|send_message| a2',
        '  a2 -->|send_message| a3',
        '',
      ].join('\n'),
    );
    expect(agency.toMermaid({ direction: 'LR', userLabel: 'Customer' })).toMatch(
      /^flowchart LR\n {2}user\(\["Customer"\]\)/,
    );
    await agency.close();
  });

  it('escapes names that would break the diagram and skips unknown agents', () => {
    const text = agencyToMermaid({
      agents: new Map([
        ['Say "hi"', {}],
        ['<b>', {}],
      ]),
      entryPoints: ['Say "hi"', 'ghost'],
      flows: [
        ['Say "hi"', '<b>'],
        ['ghost', '<b>'],
      ],
    });
    expect(text).toContain('a0["Say #quot;hi#quot;"]');
    expect(text).toContain('a1["#lt;b#gt;"]');
    expect(text).not.toContain('ghost');
    expect(text.match(/-->/g)).toHaveLength(2);
  });
});
