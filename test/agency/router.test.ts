import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import type { AgencyStreamEvent } from '../../src/agency/events.js';
import { AgencyConfigError } from '../../src/errors.js';
import { lastUserText } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';

function desks() {
  const billing = new Agent({
    name: 'Billing',
    description: 'Invoices and refunds.',
    instructions: 'b',
    model: new ScriptedModel((r) => `Billing: ${lastUserText(r)}`),
  });
  const support = new Agent({
    name: 'Support',
    description: 'Technical problems.',
    instructions: 's',
    model: new ScriptedModel((r) => `Support: ${lastUserText(r)}`),
  });
  return { billing, support };
}

describe('entry-point routing', () => {
  it('lets a function pick the entry point, and reports the choice', async () => {
    const { billing, support } = desks();
    const seen: string[][] = [];
    const agency = new Agency({
      entryPoints: [billing, support],
      router: ({ message, entryPoints }) => {
        seen.push(entryPoints.map((e) => `${e.name}=${e.description}`));
        return /crash|error/i.test(message) ? 'Support' : 'Billing';
      },
    });
    const result = await agency.getResponse('The app shows an error');
    expect(result.routedTo).toBe('Support');
    expect(result.finalOutput).toBe('Support: The app shows an error');
    expect(seen[0]).toEqual(['Billing=Invoices and refunds.', 'Support=Technical problems.']);
    expect((await agency.getResponse('Refund my invoice')).routedTo).toBe('Billing');
  });

  it('lets a classifier agent pick, counts its model call, and streams the choice first', async () => {
    const { billing, support } = desks();
    const classifierModel = new ScriptedModel((r) =>
      /invoice/i.test(lastUserText(r)) ? 'billing' : 'Support',
    );
    const classifier = new Agent({
      name: 'Triage',
      instructions: 'Pick the desk.',
      model: classifierModel,
    });
    const agency = new Agency({ entryPoints: [billing, support], router: classifier });
    const result = await agency.getResponse('Where is my invoice?');
    expect(result.routedTo).toBe('Billing');
    expect(result.usage.requests).toBe(2);
    expect(classifierModel.calls[0]!.request.systemInstructions).toContain(
      '- Support: Technical problems.',
    );

    const events: AgencyStreamEvent[] = [];
    for await (const event of agency.getResponseStream('It crashes')) events.push(event);
    expect(events[0]).toEqual({ type: 'entry_routed', agent: 'Support', by: 'agent' });
    expect(events.at(-1)).toMatchObject({ type: 'run_completed', result: { routedTo: 'Support' } });
  });

  it('is skipped when the caller names a recipient', async () => {
    const { billing, support } = desks();
    let calls = 0;
    const agency = new Agency({
      entryPoints: [billing, support],
      router: () => (calls++, 'Support'),
    });
    const result = await agency.getResponse('hi', { recipient: 'Billing' });
    expect(result.finalOutput).toBe('Billing: hi');
    expect(result.routedTo).toBeUndefined();
    expect(calls).toBe(0);
  });

  it('rejects a choice that is not an entry point, naming the entry points', async () => {
    const { billing, support } = desks();
    const byFunction = new Agency({ entryPoints: [billing, support], router: () => 'Sales' });
    await expect(byFunction.getResponse('hi')).rejects.toBeInstanceOf(AgencyConfigError);
    await expect(byFunction.getResponse('hi')).rejects.toThrow(/"Sales".*Billing, Support/);
    const confused = new Agent({
      name: 'Triage',
      instructions: 't',
      model: new ScriptedModel(['no idea']),
    });
    const byAgent = new Agency({ entryPoints: [billing, support], router: confused });
    await expect(byAgent.getResponse('hi')).rejects.toThrow(/answered "no idea"/);
  });
});
