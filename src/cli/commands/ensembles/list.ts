/**
 * `colloquy list-ensembles` (Colloquy's `ensembles_dir` and llm-orc's ensemble trees, nested
 * folders included) and `colloquy list-profiles`.
 * @module
 */
import path from 'node:path';
import { loadProjectConfig, loadProjectProfiles } from '../../../models/projectConfig.js';
import { listEnsembleEntries, llmOrcEnsembleDirs } from '../../../ensembles/llmorc/project.js';
import { loadLlmOrcProfileSources } from '../../../ensembles/llmorc/profiles.js';
import { findLlmOrcDir } from '../../../ensembles/llmorc/project.js';
import { renderTable } from '../../table.js';

/** Lists every ensemble: `name` (or `folder/name`) and its description. */
export async function listEnsembles(): Promise<void> {
  const project = await loadProjectConfig();
  const own = path.resolve(project.baseDir, project.ensembles_dir);
  const dirs = [own, ...llmOrcEnsembleDirs(project.baseDir).filter((dir) => dir !== own)];
  let count = 0;
  for (const dir of dirs) {
    const entries = await listEnsembleEntries(dir);
    if (entries.length === 0) continue;
    if (dirs.length > 1) process.stdout.write(`${dir}:\n`);
    count += entries.length;
    const rows = entries.map((entry) => [
      entry.displayName,
      entry.error
        ? '(invalid YAML: run colloquy validate)'
        : (entry.description ?? '').split('\n')[0]!.trim(),
    ]);
    process.stdout.write(`${renderTable([], rows).join('\n')}\n`);
  }
  if (count === 0)
    process.stdout.write(
      `No ensembles in ${dirs.join(', ')}. Create one with colloquy init, set ensembles_dir in colloquy.yaml, or add .llm-orc/ensembles/.\n`,
    );
}

/** Lists every profile with its provider/model and where it was defined. */
export async function listProfiles(): Promise<void> {
  const sources = await loadLlmOrcProfileSources({ llmOrcDir: findLlmOrcDir() });
  const registry = await loadProjectProfiles({ sources });
  if (registry.names().length === 0)
    process.stdout.write(
      'No profiles. Add profiles: to colloquy.yaml (colloquy init writes one), or model_profiles: to .llm-orc/config.yaml.\n',
    );
  const rows = registry.names().map((name) => {
    let shown: string;
    try {
      const profile = registry.get(name);
      shown = `${profile.provider}/${profile.model}`;
    } catch (error) {
      shown = `(unusable: ${(error as Error).message.split('. ')[0]})`;
    }
    return [name, shown, registry.source(name)];
  });
  if (rows.length > 0) process.stdout.write(`${renderTable([], rows).join('\n')}\n`);
}
