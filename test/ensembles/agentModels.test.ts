import { describe, expect, it } from 'vitest';
import { AgentModels } from '../../src/ensembles/agentModels.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';

const ensemble = parseEnsemble(
  'name: m\nagents:\n  - { name: w, model_profile: p }\n  - { name: v, model_profile: p }\n  - { name: s, script: x }\n',
);

describe('AgentModels', () => {
  it('makes one model per agent, once per run', async () => {
    let made = 0;
    const models = new AgentModels(ensemble, undefined, () => {
      made += 1;
      return new ScriptedModel(['a']);
    });
    const [first, again] = await Promise.all([models.get('w'), models.get('w')]);
    expect(first).toBe(again);
    await models.get('v');
    expect(made).toBe(2);
  });

  it('fast-forwards a scripted model past the calls a resumed run already made', async () => {
    const models = new AgentModels(
      ensemble,
      undefined,
      () => new ScriptedModel(['one', 'two', 'three']),
      { w: 2 },
    );
    const { model } = await models.get('w');
    const scripted = model as ScriptedModel;
    expect(scripted.calls).toHaveLength(2);
    const fresh = await new AgentModels(ensemble, undefined, () => new ScriptedModel(['one'])).get(
      'v',
    );
    expect((fresh.model as ScriptedModel).calls).toHaveLength(0);
  });

  it('an agent without a model profile gets a clear error', async () => {
    const models = new AgentModels(ensemble, undefined, () => new ScriptedModel(['a']));
    await expect(models.get('s')).rejects.toThrow(
      /Agent "s" has no model_profile. Give it one, or make it a script agent/,
    );
  });
});
