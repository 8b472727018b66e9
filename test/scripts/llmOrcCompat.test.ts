import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../ensembles/helpers.js';

const run = promisify(execFile);

/** A small llm-orc checkout written by us: one valid script ensemble, one LLM, one broken. */
function checkout(): string {
  const root = tempDir();
  const dot = path.join(root, '.llm-orc');
  mkdirSync(path.join(dot, 'ensembles', 'nested'), { recursive: true });
  mkdirSync(path.join(dot, 'scripts'), { recursive: true });
  writeFileSync(
    path.join(dot, 'config.yaml'),
    'model_profiles:\n  real: { model: llama3, provider: ollama }\n',
  );
  writeFileSync(
    path.join(dot, 'scripts', 'hello.sh'),
    'echo \'{"success": true, "greeting": "hi"}\'\n',
  );
  writeFileSync(
    path.join(dot, 'ensembles', 'scripts-only.yaml'),
    `name: scripts-only
description: documented outputs
agents:
  - name: hello
    script: scripts/hello.sh
  - name: extract
    script: primitives/data-transform/json_extract.py
    parameters: { json_data: '{"a": 1}', fields: [a] }
validation:
  structural: { required_agents: [hello, extract] }
  schema:
    - agent: hello
      required_fields: [success, greeting]
`,
  );
  writeFileSync(
    path.join(dot, 'ensembles', 'nested', 'llm.yaml'),
    'name: llm\ndescription: x\nagents:\n  - name: a\n    model_profile: real\n  - name: b\n    model_profile: real\n    depends_on: [a]\n',
  );
  writeFileSync(
    path.join(dot, 'ensembles', 'broken.yaml'),
    'name: broken\ndescription: x\nagents:\n  - name: a\n',
  );
  return root;
}

describe('scripts/llmOrcCompat.ts', () => {
  it('prints how many ensembles validate, run offline, and match their documented outputs', async () => {
    const root = checkout();
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/llmOrcCompat.ts', root],
      {
        env: { ...process.env, XDG_CONFIG_HOME: root },
        timeout: 120_000,
      },
    );
    expect(stdout).toContain('ensemble files: 3');
    expect(stdout).toContain('validate: 2 of 3');
    expect(stdout).toContain('run to completion offline (mock models): 2 of 3');
    expect(stdout).toContain(
      'script-only ensembles: 1; documenting their outputs: 1; outputs as documented: 1 of 1',
    );
  }, 150_000);
});
