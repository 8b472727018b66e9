/**
 * Runs an llm-orc checkout's ensembles through Colloquy, offline, and prints how many validate,
 * how many run to completion (every model replaced by the offline mock), and, for ensembles made
 * only of script agents that document their outputs (`validation:`), how many match.
 *
 *   npx tsx scripts/llmOrcCompat.ts /path/to/llm-orc [--verbose]
 *
 * The checkout is read in place; scripts run in a temporary directory (so files they write land
 * there), runs are kept in memory, and no artifacts are written.
 */
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createProfileRegistry } from '../src/models/profiles.js';
import type { ProfileMap } from '../src/models/profiles.js';
import { checkSiblingEnsemble } from '../src/ensembles/children.js';
import { checkDocumentedOutputs } from '../src/ensembles/llmorc/documented.js';
import { listYamlFilesRecursive } from '../src/ensembles/llmorc/project.js';
import { llmOrcView } from '../src/ensembles/llmorc/results.js';
import { runEnsemble } from '../src/ensembles/run.js';
import { validateEnsembleText } from '../src/ensembles/validate.js';
import { checkScriptExists } from '../src/ensembles/scriptResolve.js';
import { prepareEnsemble, profilesForEnsemble } from '../src/cli/commands/ensembles/profiles.js';

const root = path.resolve(process.argv[2] ?? '');
const verbose = process.argv.includes('--verbose');
const RUN_TIMEOUT_MS = Number(process.env.COMPAT_RUN_TIMEOUT_MS ?? 30_000);
if (!process.argv[2]) {
  process.stderr.write('usage: npx tsx scripts/llmOrcCompat.ts /path/to/llm-orc [--verbose]\n');
  process.exit(2);
}
process.env.COLLOQUY_NO_LLM_ORC_GLOBAL = '1';

const dirs = [
  path.join(root, '.llm-orc', 'ensembles'),
  path.join(root, 'llm-orchestra-library', 'ensembles'),
];
// Symlinked files are aliases of files listed anyway: count each ensemble once.
const seen = new Set<string>();
const files = (await Promise.all(dirs.map(listYamlFilesRecursive)))
  .flat()
  .filter((file) => !seen.has(realpathSync(file)) && seen.add(realpathSync(file)));
// Scripts run in a scratch directory that mirrors the checkout with symlinks (read in place, never
// copied); what they write lands in the scratch directory's own .llm-orc/artifacts.
const work = mkdtempSync(path.join(os.tmpdir(), 'llm-orc-compat-'));
mkdirSync(path.join(work, '.llm-orc'));
// Only folders are linked: a script writing a file at the top (e.g. write_file to ./out.txt)
// must create it here, never write through a link into the checkout.
const linkFolders = (from: string, to: string, skip: string[]) => {
  for (const entry of readdirSync(from, { withFileTypes: true }))
    if (entry.isDirectory() && !skip.includes(entry.name))
      symlinkSync(path.join(from, entry.name), path.join(to, entry.name));
};
linkFolders(root, work, ['.llm-orc', '.git']);
linkFolders(path.join(root, '.llm-orc'), path.join(work, '.llm-orc'), ['artifacts']);
process.chdir(work);
// Scripts that import llm_orc find it as they would under llm-orc.
// ...without writing bytecode caches into the checkout.
process.env.PYTHONDONTWRITEBYTECODE = '1';
process.env.PYTHONPATH = [path.join(root, 'src'), process.env.PYTHONPATH].filter(Boolean).join(':');
const DEFAULT_INPUT =
  'Colloquy runs llm-orc ensembles offline. The quick brown fox jumps over the lazy dog.';

let valid = 0;
let completed = 0;
let scriptOnly = 0;
let documented = 0;
let documentedMatch = 0;
const failures: string[] = [];
const show = (line: string) => verbose && process.stdout.write(`${line}\n`);

for (const file of files) {
  const rel = path.relative(root, file);
  const profiles = await profilesForEnsemble(file, work);
  const text = await readFile(file, 'utf8');
  const { issues } = validateEnsembleText(text, {
    file,
    profileNames: profiles.names(),
    llmOrc: true,
    baseDir: path.dirname(file),
    checkScript: (script) =>
      checkScriptExists(script, {
        baseDir: path.dirname(file),
        projectDir: root,
        protocol: 'llm-orc',
      }),
    checkEnsemble: (reference) => checkSiblingEnsemble(reference, path.dirname(file)),
  });
  if (issues.length === 0) valid++;
  else show(`invalid  ${rel}: ${issues[0]!.path}: ${issues[0]!.message.slice(0, 160)}`);
  let prepared;
  try {
    prepared = await prepareEnsemble(file, work, { checkProfiles: false });
  } catch (error) {
    failures.push(`${rel}: load: ${(error as Error).message.split('\n')[0]!.slice(0, 200)}`);
    show(`no-load  ${rel}`);
    continue;
  }
  const { ensemble } = prepared;
  const mock: ProfileMap = {};
  for (const name of prepared.profiles?.names() ?? [])
    mock[name] = { provider: 'mock', model: `mock-${name}` };
  for (const agent of ensemble.agents)
    if (agent.model_profile)
      mock[agent.model_profile] = { provider: 'mock', model: `mock-${agent.model_profile}` };
  const registry = createProfileRegistry([{ source: 'mock', baseDir: work, profiles: mock }]);
  const startedAt = new Date();
  const result = await runEnsemble(ensemble, {
    input: ensemble.default_task ?? DEFAULT_INPUT,
    profiles: registry,
    signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
  }).catch((error: unknown) => error as Error);
  if (result instanceof Error) {
    failures.push(`${rel}: run: ${result.message.slice(0, 200)}`);
    continue;
  }
  const view = llmOrcView(result, {
    ensemble: ensemble.name,
    agents: ensemble.agents.map((agent) => agent.name),
    input: ensemble.default_task ?? DEFAULT_INPUT,
    startedAt,
    completedAt: new Date(),
  });
  if (result.completion_reason === 'completed' && view.status === 'completed') completed++;
  else
    failures.push(
      `${rel}: ${result.completion_reason}/${view.status}${result.error ? `: ${result.error.agent}: ${result.error.message.slice(0, 200)}` : ''}`,
    );
  show(`${view.status.padEnd(22)} ${rel}`);
  if (ensemble.agents.every((agent) => agent.kind === 'script')) {
    scriptOnly++;
    const latest: Record<string, { status: string; output?: Record<string, unknown> }> = {};
    for (const [agent, item] of Object.entries(view.results))
      latest[agent] = { status: item.status };
    for (const turn of result.conversation_history)
      latest[turn.agent_name] = {
        status: latest[turn.agent_name]?.status ?? 'success',
        output: turn.output_data,
      };
    const check = checkDocumentedOutputs(ensemble.llmorc?.validation, latest);
    if (check.documented) {
      documented++;
      if (check.failed.length === 0) documentedMatch++;
      else failures.push(`${rel}: documented outputs: ${check.failed.join('; ')}`);
    }
  }
}

process.stdout.write(
  [
    `llm-orc checkout: ${root}`,
    `ensemble files: ${files.length}`,
    `validate: ${valid} of ${files.length}`,
    `run to completion offline (mock models): ${completed} of ${files.length}`,
    `script-only ensembles: ${scriptOnly}; documenting their outputs: ${documented}; outputs as documented: ${documentedMatch} of ${documented}`,
    ...(verbose ? ['', 'not completed / mismatches:', ...failures.map((line) => `  ${line}`)] : []),
  ].join('\n') + '\n',
);
