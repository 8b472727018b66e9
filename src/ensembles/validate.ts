/**
 * Validation of ensemble files: the zod schema plus the rules a schema cannot express (unknown
 * or duplicate agents, unconditional dependency cycles, unknown profiles, script vs model_profile,
 * CEL conditions). Every problem is collected, each with `file:line:column`.
 * @module
 */
import { isScalar, LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import {
  checkYamlLimits,
  DEFAULT_YAML_LIMITS,
  formatYamlPath,
  locateYamlPath,
} from '../yamlErrors.js';
import { checkCondition } from './conditions.js';
import { dispatchDependencyProblem, namedEnsembles } from './dispatch.js';
import { depsOf, unconditionalCycles } from './cycles.js';
import { dependencyConditionAsCel } from './pythonConditions.js';
import { ensembleFileSchema, normalizeEnsemble } from './schema.js';
import type { Ensemble } from './schema.js';

/** One problem in an ensemble file. */
export interface EnsembleIssue {
  file: string;
  line: number;
  column: number;
  /** The field, e.g. `agents[1].depends_on[0].condition`. */
  path: string;
  message: string;
}

/** Options of {@link validateEnsembleText}. */
export interface ValidateEnsembleOptions {
  /** The file name shown in messages (default `<ensemble>`). */
  file?: string;
  /** Known profile names; when given, an unknown `model_profile` is an error. */
  profileNames?: readonly string[];
  /** Where relative script paths resolve from (kept on the returned ensemble). */
  baseDir?: string;
  /**
   * The file belongs to an llm-orc project (`.llm-orc/ensembles`): top-level keys Colloquy does
   * not know are kept as metadata instead of being errors, as llm-orc's loader does.
   */
  llmOrc?: boolean;
  /** Checks each script agent's `script` (e.g. that its file exists); returns a problem or undefined. */
  checkScript?: (script: string) => string | undefined;
  /**
   * Checks each ensemble an agent names in the file (`ensemble:`, `loop.body`, a literal
   * `dispatch:`), e.g. that it can be found; returns a problem or undefined. A `${agent.field}`
   * dispatch is resolved at run time and not checked here.
   */
  checkEnsemble?: (reference: string) => string | undefined;
}

/** What {@link validateEnsembleText} found: every issue, and the ensemble when there were none. */
export interface EnsembleValidation {
  issues: EnsembleIssue[];
  /** Information that is not a problem: each ADR-005 Python condition and the CEL it became. */
  notes?: EnsembleIssue[];
  ensemble?: Ensemble;
}

export { unconditionalCycles };

/** Formats an issue as `file:line:column: path: message`. */
export function formatEnsembleIssue(issue: EnsembleIssue): string {
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.path}: ${issue.message}`;
}

type Path = (string | number)[];
type Report = (path: Path, message: string, offset?: number) => void;
type Raw = Record<string, unknown>;

const asRecord = (value: unknown): Raw | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : undefined;

/** The keys that say what an agent runs; exactly one source must be present. */
const SOURCES = ['script', 'model_profile', 'model', 'ensemble', 'loop', 'dispatch'] as const;

function checkSource(agent: Raw, at: Path, report: Report): void {
  const present = SOURCES.filter((key) => agent[key] !== undefined);
  if (agent.model !== undefined && agent.provider === undefined)
    report([...at, 'model'], 'model needs provider (e.g. provider: ollama); or use model_profile');
  if (agent.provider !== undefined && agent.model === undefined)
    report([...at, 'provider'], 'provider needs model (e.g. model: llama3); or use model_profile');
  if (present.length === 0) {
    report(
      [...at, 'name'],
      `agent "${String(agent.name)}" needs exactly one of script (a command) or model_profile (a profile name)` +
        ' (or model + provider, ensemble, loop, dispatch)',
    );
  } else if (present.length > 1) {
    const [first, second] = present;
    report(
      [...at, second!],
      first === 'script' && second === 'model_profile'
        ? 'an agent has either script or model_profile, not both; remove one'
        : `an agent has one of ${SOURCES.join(', ')}; it has ${present.join(' and ')}: remove all but one (agent "${String(agent.name)}")`,
    );
  }
  const isLlm = agent.model_profile !== undefined || agent.model !== undefined;
  if (agent.type === 'script' && isLlm)
    report(
      [...at, 'type'],
      'type is script but the agent has model_profile; use script or change type to llm',
    );
  if (agent.type === 'llm' && agent.script !== undefined)
    report(
      [...at, 'type'],
      'type is llm but the agent has script; use model_profile or change type to script',
    );
  if (agent.fan_out === true && depsOf(agent).list.length === 0)
    report(
      [...at, 'fan_out'],
      'fan_out: true needs depends_on naming the agent whose output is the array to fan out over',
    );
}

function checkAgent(
  agent: Raw,
  index: number,
  names: Set<string>,
  options: ValidateEnsembleOptions,
  report: Report,
  note: Report,
): void {
  const at: Path = ['agents', index];
  checkSource(agent, at, report);
  if (agent.depends_on !== undefined && agent.dependencies !== undefined) {
    report(
      [...at, 'dependencies'],
      'depends_on and dependencies are the same field (dependencies is the llm-orc spelling); keep one',
    );
  }
  if (agent.system_prompt !== undefined && agent.prompt !== undefined) {
    report(
      [...at, 'prompt'],
      'system_prompt and prompt are the same field (prompt is the llm-orc spelling); keep one',
    );
  }
  if (
    options.profileNames &&
    typeof agent.model_profile === 'string' &&
    !options.profileNames.includes(agent.model_profile)
  ) {
    const names = options.profileNames;
    const known = names.length
      ? `${names.slice(0, 12).join(', ')}${names.length > 12 ? `, … (${names.length} in all; see colloquy list-profiles)` : ''}`
      : '(none)';
    const where = options.llmOrc
      ? 'model_profiles: in .llm-orc/config.yaml or a file in .llm-orc/profiles/'
      : 'profiles: in colloquy.yaml';
    report(
      [...at, 'model_profile'],
      `profile "${agent.model_profile}" does not exist (known: ${known}); define it under ${where}`,
    );
  }
  const { key, list } = depsOf(agent);
  list.forEach((dep, d) => {
    const object = asRecord(dep);
    const target = typeof dep === 'string' ? dep : object?.agent_name;
    const depPath: Path = typeof dep === 'string' ? [...at, key, d] : [...at, key, d, 'agent_name'];
    if (typeof target === 'string' && !names.has(target)) {
      report(
        depPath,
        `depends on "${target}", which is not an agent of this ensemble (agents: ${[...names].join(', ')})`,
      );
    }
    if (typeof object?.condition === 'string') {
      const where: Path = [...at, key, d, 'condition'];
      const converted = dependencyConditionAsCel(
        object.condition,
        typeof target === 'string' ? target : 'dependency',
      );
      if ('problem' in converted) {
        report(where, converted.problem.message, converted.problem.offset);
        return;
      }
      const problem = checkCondition(converted.cel);
      if (problem)
        report(
          where,
          converted.translated
            ? `the Python condition was translated to CEL "${converted.cel}", which fails: ${problem.message}`
            : `${problem.message} (character ${problem.offset + 1})`,
          converted.translated ? undefined : problem.offset,
        );
      else if (converted.translated)
        note(where, `ADR-005 Python condition, run as the CEL: ${converted.cel}`);
    }
  });
  if (typeof agent.dispatch === 'string') {
    const dependencies = list.map((dep) =>
      typeof dep === 'string' ? dep : asRecord(dep)?.agent_name,
    );
    const problem = dispatchDependencyProblem(agent, agent.dispatch, {
      key,
      dependencies,
      agents: [...names],
    });
    if (problem) report([...at, 'dispatch'], problem);
  }
}

function semanticChecks(
  raw: Raw,
  options: ValidateEnsembleOptions,
  report: Report,
  note: Report,
): void {
  const agents = (Array.isArray(raw.agents) ? raw.agents : []).map(
    (agent) => asRecord(agent) ?? {},
  );
  const names = new Set<string>();
  agents.forEach((agent, index) => {
    if (typeof agent.name !== 'string') return;
    if (names.has(agent.name))
      report(
        ['agents', index, 'name'],
        `agent name "${agent.name}" is used twice; names must be unique`,
      );
    names.add(agent.name);
  });
  agents.forEach((agent, index) => checkAgent(agent, index, names, options, report, note));
  for (const { index, cycle } of unconditionalCycles(agents)) {
    report(
      ['agents', Math.max(0, index), 'name'],
      `unconditional dependency cycle ${cycle.join(' -> ')}: none of these agents can start; give one dependency a condition`,
    );
  }
  const limits = asRecord(asRecord(raw.conversation_limits)?.max_agent_executions);
  for (const name of Object.keys(limits ?? {})) {
    if (!names.has(name))
      report(
        ['conversation_limits', 'max_agent_executions', name],
        `"${name}" is not an agent of this ensemble (agents: ${[...names].join(', ')})`,
      );
  }
}

const KNOWN_TOP_LEVEL = new Set(Object.keys(ensembleFileSchema.shape));

/** An llm-orc file's top level without the keys Colloquy does not know (llm-orc ignores them too). */
function dropUnknownTopLevel(raw: unknown): unknown {
  const record = asRecord(raw);
  if (!record) return raw;
  return Object.fromEntries(Object.entries(record).filter(([key]) => KNOWN_TOP_LEVEL.has(key)));
}

function locate(
  doc: Document,
  lineCounter: LineCounter,
  path: Path,
  offset: number | undefined,
  preferKey: boolean,
) {
  const node = doc.getIn(path, true);
  if (
    offset !== undefined &&
    isScalar(node) &&
    node.range &&
    (node.type === 'PLAIN' || node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')
  ) {
    const { line, col } = lineCounter.linePos(
      node.range[0] + offset + (node.type === 'PLAIN' ? 0 : 1),
    );
    return { line, column: col };
  }
  return locateYamlPath(doc, path, lineCounter, preferKey) ?? { line: 1, column: 1 };
}

/**
 * Validates the text of an ensemble file and returns every issue (empty when valid) and, when
 * valid, the normalized ensemble.
 *
 * @example
 * ```ts
 * const { issues } = validateEnsembleText(text, { file: 'team.yaml', profileNames: ['fast'] });
 * for (const issue of issues) console.error(formatEnsembleIssue(issue));
 * ```
 */
export function validateEnsembleText(
  text: string,
  options: ValidateEnsembleOptions = {},
): EnsembleValidation {
  const file = options.file ?? '<ensemble>';
  const limit = checkYamlLimits(text);
  if (limit)
    return {
      issues: [{ file, line: limit.line, column: 1, path: '(yaml)', message: limit.message }],
    };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const issues: EnsembleIssue[] = [];
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      issues.push({
        file,
        line,
        column: col,
        path: '(yaml)',
        message: `invalid YAML: ${error.message.split('\n')[0]}`,
      });
    }
    return { issues };
  }
  const report = (path: Path, message: string, offset?: number, preferKey = false): void => {
    const { line, column } = locate(doc, lineCounter, path, offset, preferKey);
    issues.push({ file, line, column, path: formatYamlPath(path), message });
  };
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: DEFAULT_YAML_LIMITS.maxAliases }) as unknown;
  } catch (error) {
    const message = (error as Error).message;
    const alias = /alias[^:]*: (\S+)/i.exec(message)?.[1];
    const at = alias ? text.indexOf(`*${alias}`) : -1;
    const { line, col } = lineCounter.linePos(Math.max(0, at));
    issues.push({
      file,
      line,
      column: col,
      path: '(yaml)',
      message: `invalid YAML: ${message}. Define every anchor (&name) before its alias (*name).`,
    });
    return { issues };
  }
  if (options.llmOrc) raw = dropUnknownTopLevel(raw);
  const parsed = ensembleFileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys)
          report(
            [...path, key],
            `unknown key "${key}" (remove it or check its spelling)`,
            undefined,
            true,
          );
      } else report(path, issue.message);
    }
  }
  const notes: EnsembleIssue[] = [];
  semanticChecks(
    asRecord(raw) ?? {},
    options,
    (path, message, offset) => report(path, message, offset),
    (path, message) => {
      const { line, column } = locate(doc, lineCounter, path, undefined, false);
      notes.push({ file, line, column, path: formatYamlPath(path), message });
    },
  );
  const rawAgents = asRecord(raw)?.agents;
  (Array.isArray(rawAgents) ? rawAgents : []).forEach((value, index) => {
    const agent = asRecord(value) ?? {};
    const script = agent.script;
    const problem =
      options.checkScript && typeof script === 'string' ? options.checkScript(script) : undefined;
    if (problem) report(['agents', index, 'script'], problem);
    if (!options.checkEnsemble) return;
    for (const { field, reference } of namedEnsembles(agent)) {
      const missing = options.checkEnsemble(reference);
      if (missing) report(['agents', index, ...field], missing);
    }
  });
  issues.sort((a, b) => a.line - b.line || a.column - b.column);
  if (issues.length > 0 || !parsed.success) return { issues, ...(notes.length ? { notes } : {}) };
  return {
    issues,
    ...(notes.length ? { notes } : {}),
    ensemble: normalizeEnsemble(parsed.data, { baseDir: options.baseDir, file: options.file }),
  };
}
