import { describe, expect, it } from 'vitest';
import { deriveAgentProfiles } from '../../../src/ensembles/llmorc/agentProfiles.js';
import { parseEnsemble } from '../../../src/ensembles/load.js';
import { createProfileRegistry } from '../../../src/models/profiles.js';

const registry = createProfileRegistry([
  {
    source: 'x',
    baseDir: '.',
    profiles: {
      base: { model: 'mock-base', provider: 'ollama', temperature: 0.9, system_prompt: 'Hi.' },
    },
  },
]);

describe('deriveAgentProfiles', () => {
  it('gives inline models and overriding agents profiles of their own', () => {
    const ensemble = parseEnsemble(`name: x
agents:
  - name: inline
    model: mock-inline
    provider: ollama
    max_tokens: 100
  - name: tuned
    model_profile: base
    temperature: 0.1
  - name: plain
    model_profile: base
  - name: tool
    script: echo hi
    parameters: { a: 1 }
`);
    const { ensemble: out, profiles } = deriveAgentProfiles(ensemble, registry);
    expect(out.agents.map((a) => a.model_profile)).toEqual([
      'ollama/mock-inline@inline',
      'base@tuned',
      'base',
      undefined,
    ]);
    expect(profiles).toEqual({
      'ollama/mock-inline@inline': { model: 'mock-inline', provider: 'ollama', max_tokens: 100 },
      'base@tuned': {
        model: 'mock-base',
        provider: 'ollama',
        temperature: 0.1,
        system_prompt: 'Hi.',
      },
    });
    expect(ensemble.agents[1]!.model_profile).toBe('base');
  });

  it('leaves an agent whose base profile is unknown to fail at run time', () => {
    const ensemble = parseEnsemble(
      'name: x\nagents:\n  - name: a\n    model_profile: nope\n    temperature: 0.5\n',
    );
    const { ensemble: out, profiles } = deriveAgentProfiles(ensemble, registry);
    expect(out.agents[0]!.model_profile).toBe('nope');
    expect(profiles).toEqual({});
  });
});
