/**
 * `colloquy init`: a starter `colloquy.yaml` and `ensembles/example.yaml`.
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_CONFIG_FILE } from '../../../models/projectConfig.js';

const STARTER_CONFIG = `# Colloquy project configuration. Profiles name models; ensembles refer to them by name.
profiles:
  offline:
    provider: scripted
    model: demo
    script:
      - '{"draft": 1, "text": "A first draft."}'
      - '{"draft": 2, "text": "A better draft."}'
  reviewer:
    provider: scripted
    model: reviewer
    script:
      - '{"satisfied": false, "feedback": "Be more specific."}'
      - '{"satisfied": true, "feedback": "Good."}'
ensembles_dir: ensembles
`;

const STARTER_ENSEMBLE = `# A writer and a reviewer take turns until the reviewer is satisfied (offline: scripted profiles).
# Expected outcome: completion_reason: completed, turn_count: 4
name: example
description: A writer and a reviewer converse until the reviewer is satisfied.
default_task: Write a tagline for a tea shop.
agents:
  - name: writer
    model_profile: offline
    depends_on:
      - agent_name: reviewer
        condition: '!state.reviewer.satisfied'
        max_executions: 3
    conversation: { max_turns: 3, triggers_conversation: true }
  - name: reviewer
    model_profile: reviewer
    depends_on:
      - agent_name: writer
        max_executions: 3
    conversation: { max_turns: 3 }
conversation_limits:
  max_total_turns: 10
  timeout_seconds: 60
`;

/** Writes the starter project in the working directory (refuses to overwrite). */
export async function init(): Promise<void> {
  const cwd = process.cwd();
  const targets = [
    path.join(cwd, PROJECT_CONFIG_FILE),
    path.join(cwd, 'ensembles', 'example.yaml'),
  ];
  const existing = targets.filter((target) => existsSync(target));
  if (existing.length > 0) {
    process.stderr.write(
      `Refusing to overwrite ${existing.join(', ')}. Move or delete it first, or edit it by hand.\n`,
    );
    process.exitCode = 1;
    return;
  }
  await mkdir(path.join(cwd, 'ensembles'), { recursive: true });
  await writeFile(targets[0]!, STARTER_CONFIG, { flag: 'wx' });
  await writeFile(targets[1]!, STARTER_ENSEMBLE, { flag: 'wx' });
  process.stdout.write(`Wrote ${targets.join(' and ')}.\nTry: colloquy invoke example\n`);
}
