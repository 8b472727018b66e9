/**
 * Datasets: JSON Lines (one case per line) or YAML (a list of cases, or `{ cases: [...] }`).
 * Every case is checked with one zod schema; a bad one fails with the file, the line and the
 * field, e.g. `cases.jsonl:3: thresholds.exact: expected a number from 0 to 1`.
 *
 * ```jsonl
 * {"input": "Write a short brief about tidal energy.", "expected": "…"}
 * {"id": "delegates", "input": ["Hi", "Write about wind."], "scorers": [{"type": "delegated", "path": ["Researcher", "Writer"]}]}
 * ```
 * @module
 */
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { formatYamlIssues, parseYamlText, type YamlIssueLike } from '../yamlErrors.js';
import type { EvalCase, EvalDataset } from './types.js';

const scorerSpecSchema = z.union([
  z.string().min(1),
  z.looseObject({ type: z.string().min(1), name: z.string().min(1).optional() }),
]);

/** The schema of one case as a dataset writes it. */
export const evalCaseSchema = z
  .object({
    id: z.string().min(1).optional(),
    input: z.union([z.string(), z.array(z.string()).min(1)]),
    expected: z.string().optional(),
    scorers: z.array(scorerSpecSchema).optional(),
    tags: z.array(z.string()).optional(),
    thresholds: z
      .record(
        z.string(),
        z.number().min(0, 'expected a number from 0 to 1').max(1, 'expected a number from 0 to 1'),
      )
      .optional(),
    cassette: z.string().min(1).optional(),
    source: z
      .object({
        chatId: z.string().optional(),
        traceId: z.string().optional(),
        capturedAt: z.string().optional(),
      })
      .optional(),
  })
  .strict();

function fieldOf(issue: { path: readonly PropertyKey[] }): string {
  return issue.path.length === 0 ? '(case)' : issue.path.map(String).join('.');
}

function withIds(
  raw: Array<z.output<typeof evalCaseSchema>>,
  file: string,
  lines: number[],
): EvalCase[] {
  const seen = new Map<string, number>();
  return raw.map((item, index) => {
    const id = item.id ?? `case-${index + 1}`;
    const line = lines[index]!;
    if (seen.has(id)) {
      throw new ConfigError(
        `${file}:${line}: id: "${id}" is used twice (first at line ${seen.get(id)}). Give every case its own id.`,
      );
    }
    seen.set(id, line);
    return { ...item, id } as EvalCase;
  });
}

/** Parses JSON Lines text; blank lines and lines starting with `//` are skipped. */
export function parseJsonlDataset(file: string, text: string): EvalDataset {
  const cases: Array<z.output<typeof evalCaseSchema>> = [];
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const number = index + 1;
    if (line.trim() === '' || line.trim().startsWith('//')) return;
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch (error) {
      throw new ConfigError(
        `${file}:${number}: not JSON (${(error as Error).message}). Each line of a .jsonl dataset is one case object.`,
      );
    }
    const parsed = evalCaseSchema.safeParse(value);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${file}:${number}: ${fieldOf(issue)}: ${issue.message}`,
      );
      throw new ConfigError(
        `${problems.join('\n')}\nA case is { input, expected?, scorers?, tags?, thresholds? }.`,
      );
    }
    cases.push(parsed.data);
    lines.push(number);
  });
  return { file, cases: withIds(cases, file, lines) };
}

const yamlListSchema = z.array(evalCaseSchema);
const yamlObjectSchema = z.object({ cases: z.array(evalCaseSchema) }).strict();

/** Parses YAML text: a list of cases or `{ cases: [...] }`. */
export function parseYamlDataset(file: string, text: string): EvalDataset {
  const parsed = parseYamlText(file, text);
  const value = parsed.value ?? [];
  const list = Array.isArray(value) ? value : (value as { cases?: unknown }).cases;
  const prefix = Array.isArray(value) ? [] : ['cases'];
  const result = Array.isArray(value)
    ? yamlListSchema.safeParse(value)
    : yamlObjectSchema.transform((data) => data.cases).safeParse(value);
  if (!result.success) {
    const issues = result.error.issues as YamlIssueLike[];
    throw new ConfigError(
      `${file} is invalid:\n${formatYamlIssues({ ...parsed, issues })}\n` +
        'A YAML dataset is a list of cases (or { cases: [...] }); a case is { input, expected?, scorers?, tags?, thresholds? }.',
    );
  }
  const cases = result.data;
  const lines = (list as unknown[]).map((_, index) => {
    const node = parsed.doc.getIn([...prefix, index], true) as { range?: [number] } | undefined;
    return node?.range ? parsed.lineCounter.linePos(node.range[0]).line : index + 1;
  });
  return { file, cases: withIds(cases, file, lines) };
}

/** Reads a dataset file (`.jsonl`, `.yaml` or `.yml`). */
export async function loadDataset(file: string): Promise<EvalDataset> {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Could not read the dataset ${file}: ${(error as Error).message}. Pass the path of a .jsonl or .yaml file.`,
      { cause: error },
    );
  }
  if (/\.ya?ml$/i.test(file)) return parseYamlDataset(absolute, text);
  if (/\.jsonl$/i.test(file)) return parseJsonlDataset(absolute, text);
  throw new ConfigError(
    `The dataset ${file} is neither .jsonl nor .yaml/.yml. Rename it, or convert it.`,
  );
}

/** Appends one case to a JSON Lines dataset (created when missing). */
export async function appendCase(
  file: string,
  item: Omit<EvalCase, 'id'> & { id?: string },
): Promise<void> {
  const checked = evalCaseSchema.parse(item);
  let prefix = '';
  try {
    const existing = await readFile(file, 'utf8');
    if (existing.length > 0 && !existing.endsWith('\n')) prefix = '\n';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await appendFile(file, `${prefix}${JSON.stringify(checked)}\n`, 'utf8');
}
