/**
 * The Colloquy Agent: an `@openai/agents-core` Agent with a description that other agents see
 * in their send_message tool, and instructions that may live in a Markdown file.
 * @module
 */
import { Agent as SdkAgent } from '@openai/agents-core';
import type {
  AgentOptions as SdkAgentOptions,
  AgentOutputType,
  TextOutput,
} from '@openai/agents-core';
import { AgentFiles, instructionsAfterFiles } from '../files/agentFiles.js';
import type { FileSearchMode, FileSearchOptions } from '../files/options.js';
import { AgencyConfigError } from '../errors.js';
import { resolveInstructions } from './instructions.js';

/** Options of {@link Agent}: the SDK's agent options plus Colloquy's. */
export type AgentOptions<TContext = unknown, TOutput extends AgentOutputType = TextOutput> = Omit<
  SdkAgentOptions<TContext, TOutput>,
  'instructions'
> & {
  /** What this agent does, shown to agents that can message it. */
  description?: string;
  /**
   * The system prompt: text, a path to a `.md` file (read relative to the current directory), or
   * a function of the run context as in the SDK.
   */
  instructions?: SdkAgentOptions<TContext, TOutput>['instructions'];
  /**
   * A folder of documents (text, Markdown, JSON, CSV, code) the agent can search with a
   * `file_search` tool; results cite `path:startLine-endLine`. Binary files are skipped.
   *
   * @example
   * ```ts
   * const researcher = new Agent({
   *   name: 'Researcher',
   *   instructions: 'Answer from the docs and cite path:lines.',
   *   filesFolder: './docs',
   *   fileSearch: { indexDir: './.colloquy/files' }, // optional; 'openai' for a vector store
   * });
   * ```
   */
  filesFolder?: string;
  /**
   * How `filesFolder` is searched: `'local'` (default; an offline index persisted beside the
   * store), `'openai'` (the SDK's hosted file search over a vector store), or options.
   */
  fileSearch?: FileSearchMode | FileSearchOptions;
};

/**
 * An agent. It is a real SDK `Agent`, so it can be run with the SDK's `Runner` directly too.
 *
 * @example
 * ```ts
 * const writer = new Agent({
 *   name: 'Writer',
 *   description: 'Writes short drafts.',
 *   instructions: './prompts/writer.md',
 *   model: new ScriptedModel(['A draft.']),
 * });
 * ```
 */
export class Agent<
  TContext = unknown,
  TOutput extends AgentOutputType = TextOutput,
> extends SdkAgent<TContext, TOutput> {
  /** What this agent does, shown to agents that can message it. */
  readonly description: string;
  /** The agent's searchable files (from `filesFolder`), or `undefined`. */
  readonly files: AgentFiles | undefined;

  constructor(options: AgentOptions<TContext, TOutput>) {
    const instructions =
      typeof options.instructions === 'string'
        ? resolveInstructions(options.instructions, `Agent "${options.name}"`)
        : options.instructions;
    const files = agentFiles(options);
    super({
      ...options,
      instructions: files
        ? instructionsAfterFiles(files, instructions ?? '')
        : (instructions ?? ''),
      ...(files ? { tools: [...(options.tools ?? []), files.tool] } : {}),
      handoffDescription: options.handoffDescription ?? options.description ?? '',
    } as SdkAgentOptions<TContext, TOutput>);
    this.description = options.description ?? options.handoffDescription ?? '';
    this.files = files;
  }
}

function agentFiles(options: AgentOptions<any, any>): AgentFiles | undefined {
  if (options.filesFolder === undefined) {
    if (options.fileSearch === undefined) return undefined;
    throw new AgencyConfigError(
      `Agent "${options.name}": fileSearch is set but filesFolder is not. Add filesFolder: './docs'.`,
    );
  }
  return new AgentFiles(`Agent "${options.name}"`, options.filesFolder, options.fileSearch);
}

/** The description of any SDK agent: ours, or the SDK's handoff description. */
export function describeAgent(agent: SdkAgent<any, any>): string {
  if (agent instanceof Agent) return agent.description;
  return agent.handoffDescription ?? '';
}
