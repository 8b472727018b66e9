/**
 * The demo agency: a coordinator that delegates to a researcher and a writer; the writer asks an
 * editor to tighten its draft. Offline, every agent runs on a scripted model whose answers are
 * derived from what it is asked, so the demo is deterministic and works with any chat history.
 * @module
 */
import type { Model, ModelRequest, ModelSettings, Runner } from '@openai/agents-core';
import { Agent } from '../agency/agent.js';
import { Agency } from '../agency/agency.js';
import type { ThreadManager } from '../threads/threadManager.js';
import type { ModelPrice } from '../models/pricing.js';
import { ScriptedModel, type ScriptedStep } from '../models/scriptedModel.js';
import { lastUserText, toolOutputsSinceUser } from '../models/requestText.js';

/** Options of {@link createDemoAgency}. */
export interface DemoAgencyOptions {
  /** Where threads live (default: the agency's default). */
  threads?: ThreadManager;
  /**
   * The model for every agent: a model name (resolved by the runner's model provider) or a Model.
   * Default: offline scripted models.
   */
  model?: string | ((agent: string) => Model | string);
  /** Model settings for every agent (e.g. a profile's retries and timeout). */
  modelSettings?: ModelSettings;
  /** The SDK Runner (e.g. one with an OpenAI model provider for real models). */
  runner?: Runner;
  /** Offline models wait this long in each call, in ms (default 0), to make progress visible. */
  delayMs?: number;
  /** Prices for `usage.cost`, by agent or model name (see `AgencyOptions.prices`). */
  prices?: Record<string, ModelPrice>;
}

/** The message the demo sends when the user gives none. */
export const DEMO_MESSAGE = 'Write a short brief about tidal energy.';

function topicOf(request: ModelRequest): string {
  const text = lastUserText(request)
    .trim()
    .replace(/[.?!]+$/, '');
  const match = /(?:about|on)\s+(.+)$/i.exec(text);
  return (match?.[1] ?? text) || 'the topic';
}

const coordinator = (request: ModelRequest): ScriptedStep => {
  const topic = topicOf(request);
  const answers = toolOutputsSinceUser(request);
  if (answers.length === 0) {
    return {
      tool: 'send_message',
      args: { recipient: 'Researcher', message: `Find three key facts about ${topic}.` },
    };
  }
  if (answers.length === 1) {
    return {
      tool: 'send_message',
      args: {
        recipient: 'Writer',
        message: `Write a short brief on ${topic} using these facts: ${answers[0]}`,
      },
    };
  }
  return `Here is your brief on ${topic}:\n${answers[1]}`;
};

const researcher = (request: ModelRequest): ScriptedStep => {
  const topic = topicOf(request).replace(/^three key facts about\s+/i, '');
  return (
    `(1) ${topic} is predictable years ahead; (2) ${topic} needs sites with strong currents; ` +
    `(3) ${topic} installations last for decades.`
  );
};

const writer = (request: ModelRequest): ScriptedStep => {
  const answers = toolOutputsSinceUser(request);
  if (answers.length === 0) {
    const facts = lastUserText(request).split('facts:')[1]?.trim() ?? lastUserText(request);
    return {
      tool: 'send_message',
      args: {
        recipient: 'Editor',
        message: `Please tighten this draft: It is well known that ${facts}`,
      },
    };
  }
  return answers[0]!;
};

const editor = (request: ModelRequest): ScriptedStep => {
  const draft = lastUserText(request).replace(/^Please tighten this draft:\s*/i, '');
  return draft
    .replace(/^It is well known that\s*/i, '')
    .replace(/;\s*/g, '. ')
    .replace(/\(\d\)\s*/g, '');
};

const scripts = {
  Coordinator: coordinator,
  Researcher: researcher,
  Writer: writer,
  Editor: editor,
};

function modelFor(
  name: keyof typeof scripts,
  option: DemoAgencyOptions['model'],
  delayMs = 0,
): Model | string {
  if (typeof option === 'string') return option;
  if (typeof option === 'function') return option(name);
  const scripted = new ScriptedModel(scripts[name], { name: name.toLowerCase() });
  return delayMs > 0 ? new DelayedModel(scripted, delayMs) : scripted;
}

/** A model that waits before each call (the demo's `--delay`). */
class DelayedModel implements Model {
  readonly name = 'scripted';
  constructor(
    readonly inner: Model,
    readonly delayMs: number,
  ) {}
  async getResponse(request: ModelRequest) {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return this.inner.getResponse(request);
  }
  async *getStreamedResponse(request: ModelRequest) {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    yield* this.inner.getStreamedResponse(request);
  }
}

/**
 * Builds the demo agency.
 *
 * @example
 * ```ts
 * const agency = createDemoAgency();
 * const result = await agency.getResponse(DEMO_MESSAGE);
 * ```
 */
export function createDemoAgency(options: DemoAgencyOptions = {}): Agency {
  const make = (name: keyof typeof scripts, description: string, instructions: string): Agent =>
    new Agent({
      name,
      description,
      instructions,
      model: modelFor(name, options.model, options.delayMs),
      ...(options.modelSettings ? { modelSettings: options.modelSettings } : {}),
    });
  const coordinatorAgent = make(
    'Coordinator',
    'Plans the work and answers the user.',
    'You coordinate a small team. Ask the Researcher for facts, then ask the Writer for a brief using them, then give the brief to the user.',
  );
  const researcherAgent = make(
    'Researcher',
    'Finds key facts about a topic.',
    'Answer with three short, numbered facts.',
  );
  const writerAgent = make(
    'Writer',
    'Writes short briefs from facts.',
    'Write a short draft from the facts, ask the Editor to tighten it, and answer with the edited text.',
  );
  const editorAgent = make(
    'Editor',
    'Tightens drafts.',
    'Return the draft, tightened. Answer with the text only.',
  );
  return new Agency({
    name: 'demo',
    entryPoints: [coordinatorAgent],
    communicationFlows: [
      [coordinatorAgent, researcherAgent],
      [coordinatorAgent, writerAgent],
      [writerAgent, editorAgent],
    ],
    ...(options.threads ? { threads: options.threads } : {}),
    ...(options.runner ? { runner: options.runner } : {}),
    ...(options.prices ? { prices: options.prices } : {}),
  });
}
