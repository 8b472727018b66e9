/**
 * The message an LLM agent receives, as llm-orc builds it: an agent with no dependencies gets the
 * input unchanged; a dependent gets the original input followed by the results of the agents it
 * depends on (each labelled with the agent's name and, when known, its role); with
 * `input_scope: dependencies` it gets only those results. Failed dependencies are left out of the
 * results and listed after them, so that the agent knows what is missing.
 * @module
 */
import { responseText } from './scriptProtocol.js';

/** One dependency as the prompt shows it. */
export interface PromptDependency {
  name: string;
  /** A short description of the agent (llm-orc shows its role); optional. */
  role?: string;
  /** The output, as text or as an object (shown as JSON, or its `response` text). */
  output?: string | Record<string, unknown>;
  /** Set when the dependency failed. */
  error?: string;
}

/** What {@link llmOrcPrompt} needs. */
export interface LlmOrcPromptOptions {
  /** The ensemble's input. */
  input: string;
  /** The agent's dependencies in `depends_on` order; empty or omitted for a first-level agent. */
  dependencies?: readonly PromptDependency[];
  /** llm-orc's `input_scope`: `dependencies` leaves the ensemble input out. */
  inputScope?: 'dependencies';
}

function textOf(output: PromptDependency['output']): string {
  if (output === undefined) return '';
  return typeof output === 'string' ? output : (responseText(output) ?? '');
}

/**
 * Builds an LLM agent's message with llm-orc's rules.
 *
 * @example
 * ```ts
 * llmOrcPrompt({ input: 'Review this plan' }); // 'Review this plan'
 * llmOrcPrompt({ input: 'Review this plan', dependencies: [{ name: 'critic', output: 'Too vague.' }] });
 * ```
 */
export function llmOrcPrompt(options: LlmOrcPromptOptions): string {
  const dependencies = options.dependencies ?? [];
  if (dependencies.length === 0) return options.input;
  const ok = dependencies.filter((dep) => dep.error === undefined && dep.output !== undefined);
  const failed = dependencies.filter((dep) => dep.error !== undefined);
  const blocks = ok.map(
    (dep) => `Agent ${dep.name}${dep.role ? ` (${dep.role})` : ''}:\n${textOf(dep.output)}`,
  );
  const failures = failed.map((dep) => `- ${dep.name}: ${dep.error}`);
  if (options.inputScope === 'dependencies')
    return [...blocks, ...(failures.length ? [`Failed agents:\n${failures.join('\n')}`] : [])].join(
      '\n\n',
    );
  if (blocks.length === 0 && failures.length === 0) return options.input;
  const parts = [
    'Answer the input below. The agents you depend on have already worked on it; use their results, and add to them rather than repeat them.',
    `Input:\n${options.input}`,
  ];
  if (blocks.length) parts.push(`Results of earlier agents:\n\n${blocks.join('\n\n')}`);
  if (failures.length)
    parts.push(`These agents failed, so their results are missing:\n${failures.join('\n')}`);
  return parts.join('\n\n');
}

/**
 * {@link llmOrcPrompt} from Colloquy's agent input (`{ input, context }`, where `context` maps each
 * dependency that produced an output to that output).
 */
export function llmOrcPromptFromContext(
  agent: {
    depends_on: readonly { agent_name: string }[];
    llmorc?: { input_scope?: 'dependencies' };
  },
  input: { input: string; context: Record<string, unknown> },
  failures: Record<string, string> = {},
): string {
  const dependencies: PromptDependency[] = [];
  for (const { agent_name: name } of agent.depends_on) {
    if (failures[name] !== undefined) dependencies.push({ name, error: failures[name] });
    else if (input.context[name] !== undefined)
      dependencies.push({ name, output: input.context[name] as Record<string, unknown> });
  }
  return llmOrcPrompt({
    input: input.input,
    dependencies,
    inputScope: agent.llmorc?.input_scope,
  });
}

/** The message of one fan-out instance of an LLM agent: which item of how many, the task, the item. */
export function llmOrcFanOutPrompt(options: {
  input: string;
  item: unknown;
  index: number;
  total: number;
}): string {
  const item =
    typeof options.item === 'string' ? options.item : JSON.stringify(options.item, null, 2);
  return `Item ${options.index + 1} of ${options.total}.\n\nTask:\n${options.input}\n\nItem:\n${item}`;
}
