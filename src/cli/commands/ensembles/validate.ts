/**
 * `colloquy validate FILE...`: every problem of every file as `file:line:column`, script files
 * and the ensembles agents name (`ensemble:`, `loop.body`, a literal `dispatch:`) included; a
 * file that cannot be read or parsed never stops the others.
 * @module
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkSiblingEnsemble } from '../../../ensembles/children.js';
import { formatEnsembleIssue, validateEnsembleText } from '../../../ensembles/validate.js';
import { isInLlmOrcProject } from '../../../ensembles/llmorc/project.js';
import { checkScriptExists } from '../../../ensembles/scriptResolve.js';
import { profilesForEnsemble, projectDirFor } from './profiles.js';

/** Counts of a validate run. */
export interface ValidateSummary {
  files: number;
  ok: number;
  problems: number;
}

/** Validates one file; prints its issues (or `file: ok`) and returns how many problems it has. */
export async function validateFile(file: string): Promise<number> {
  let problems = 0;
  let profileNames: string[] | undefined;
  try {
    profileNames = (await profilesForEnsemble(file)).names();
  } catch (error) {
    process.stderr.write(
      `${(error as Error).message}\n(profiles could not be loaded; model_profile names were not checked)\n`,
    );
    problems++;
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    process.stdout.write(`${file}:1:1: (file): cannot read: ${(error as Error).message}\n`);
    return problems + 1;
  }
  const llmOrc = isInLlmOrcProject(file);
  const baseDir = path.dirname(path.resolve(file));
  const projectDir = projectDirFor(file);
  try {
    const { issues, notes = [] } = validateEnsembleText(text, {
      file,
      profileNames,
      llmOrc,
      baseDir,
      checkScript: (script) => checkScriptExists(script, { baseDir, projectDir }),
      checkEnsemble: (reference) => checkSiblingEnsemble(reference, baseDir),
    });
    for (const issue of issues) process.stdout.write(`${formatEnsembleIssue(issue)}\n`);
    // Not problems: what each ADR-005 Python condition was translated to.
    for (const note of notes) process.stdout.write(`${formatEnsembleIssue(note)}\n`);
    if (issues.length === 0 && problems === 0) process.stdout.write(`${file}: ok\n`);
    return problems + issues.length;
  } catch (error) {
    process.stdout.write(`${file}:1:1: (file): ${(error as Error).message}\n`);
    return problems + 1;
  }
}

/** Validates every file; sets exit code 1 when any has a problem. */
export async function validate(files: string[]): Promise<ValidateSummary> {
  const summary: ValidateSummary = { files: files.length, ok: 0, problems: 0 };
  for (const file of files) {
    const problems = await validateFile(file);
    summary.problems += problems;
    if (problems === 0) summary.ok++;
  }
  if (files.length > 1)
    process.stderr.write(
      `${summary.ok} of ${summary.files} files valid, ${summary.problems} problems\n`,
    );
  if (summary.problems > 0) process.exitCode = 1;
  return summary;
}
