import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { AgencyConfigError } from '../../src/errors.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';

function agent(name: string): Agent {
  return new Agent({
    name,
    instructions: `${name} instructions`,
    model: new ScriptedModel(['ok']),
  });
}

function configError(build: () => unknown): AgencyConfigError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(AgencyConfigError);
    expect((error as AgencyConfigError).code).toBe('AGENCY_INVALID');
    return error as AgencyConfigError;
  }
  throw new Error('expected the agency construction to throw');
}

describe('Agency construction checks', () => {
  it('rejects two different agents with the same name, naming it', () => {
    const first = agent('Writer');
    const second = agent('Writer');
    const coordinator = agent('Coordinator');
    const error = configError(
      () =>
        new Agency({
          entryPoints: [coordinator],
          communicationFlows: [
            [coordinator, first],
            [coordinator, second],
          ],
        }),
    );
    expect(error.message).toContain('"Writer"');
  });

  it('rejects a duplicate name between an entry point and a flow agent', () => {
    const entry = agent('Coordinator');
    const impostor = agent('Coordinator');
    const writer = agent('Writer');
    const error = configError(
      () => new Agency({ entryPoints: [entry], communicationFlows: [[writer, impostor]] }),
    );
    expect(error.message).toContain('"Coordinator"');
  });

  it('accepts the same Agent object named in several places', () => {
    const a = agent('A');
    const b = agent('B');
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [
        [a, b],
        [b, a],
      ],
    });
    expect([...agency.agents.keys()]).toEqual(['A', 'B']);
    expect(agency.flows).toEqual([
      ['A', 'B'],
      ['B', 'A'],
    ]);
  });

  it('rejects a flow from an agent to itself, naming it', () => {
    const a = agent('Solo');
    const b = agent('Other');
    const error = configError(
      () =>
        new Agency({
          entryPoints: [a],
          communicationFlows: [
            [a, b],
            [a, a],
          ],
        }),
    );
    expect(error.message).toContain('"Solo"');
    expect(error.message).toContain('communicationFlows[1]');
  });

  it("rejects a flow to a different agent object with the sender's own name", () => {
    const a = agent('Solo');
    const twin = agent('Solo');
    const error = configError(
      () => new Agency({ entryPoints: [a], communicationFlows: [[a, twin]] }),
    );
    expect(error.message).toContain('"Solo"');
  });

  it('rejects the same flow declared twice, naming both agents', () => {
    const a = agent('Alpha');
    const b = agent('Beta');
    const error = configError(
      () =>
        new Agency({
          entryPoints: [a],
          communicationFlows: [
            [a, b],
            [a, b],
          ],
        }),
    );
    expect(error.message).toContain('"Alpha"');
    expect(error.message).toContain('"Beta"');
    expect(error.message).toContain('communicationFlows[1]');
  });

  it('allows the two directions of a pair as two flows', () => {
    const a = agent('Alpha');
    const b = agent('Beta');
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [
        [a, b],
        [b, a],
      ],
    });
    expect(agency.recipientsOf('Alpha')).toEqual(['Beta']);
    expect(agency.recipientsOf('Beta')).toEqual(['Alpha']);
  });

  it('rejects an agency without entry points', () => {
    const a = agent('A');
    const b = agent('B');
    const error = configError(() => new Agency({ entryPoints: [], communicationFlows: [[a, b]] }));
    expect(error.message).toMatch(/entry point/);
  });

  it('rejects an entry point listed twice, naming it', () => {
    const a = agent('Twice');
    const error = configError(() => new Agency({ entryPoints: [a, a] }));
    expect(error.message).toContain('Twice');
  });

  it.each([0, -1, 2.5, Number.NaN])('rejects maxRecursionDepth %s', (depth) => {
    const a = agent('A');
    const error = configError(() => new Agency({ entryPoints: [a], maxRecursionDepth: depth }));
    expect(error.message).toContain('maxRecursionDepth');
    expect(error.message).toContain(String(depth));
  });

  it('accepts maxRecursionDepth 1 and defaults to 5', () => {
    const a = agent('A');
    expect(new Agency({ entryPoints: [a], maxRecursionDepth: 1 }).maxRecursionDepth).toBe(1);
    expect(new Agency({ entryPoints: [a] }).maxRecursionDepth).toBe(5);
  });

  it('registers agents reachable only through flows, in first-mention order', () => {
    const coordinator = agent('Coordinator');
    const writer = agent('Writer');
    const editor = agent('Editor');
    const fact = agent('FactChecker');
    const agency = new Agency({
      entryPoints: [coordinator],
      communicationFlows: [
        [coordinator, writer],
        [writer, editor],
        [editor, fact],
      ],
    });
    expect([...agency.agents.keys()]).toEqual(['Coordinator', 'Writer', 'Editor', 'FactChecker']);
    expect(agency.agents.get('FactChecker')).toBe(fact);
    expect(agency.entryPoints).toEqual(['Coordinator']);
    expect(agency.runtimeAgent('FactChecker').name).toBe('FactChecker');
    expect(() => agency.runtimeAgent('Nobody')).toThrow(AgencyConfigError);
  });

  it('registers flow agents that are not connected to any entry point', () => {
    const entry = agent('Entry');
    const x = agent('X');
    const y = agent('Y');
    const agency = new Agency({ entryPoints: [entry], communicationFlows: [[x, y]] });
    expect([...agency.agents.keys()].sort()).toEqual(['Entry', 'X', 'Y']);
  });

  it('rejects something that is not an agent in a flow', () => {
    const a = agent('A');
    const error = configError(
      () =>
        new Agency({ entryPoints: [a], communicationFlows: [[a, undefined as unknown as Agent]] }),
    );
    expect(error.message).toContain('communicationFlows[0][1]');
  });
});
