/**
 * The model of one agent in a what-if branch: a call whose input the original chat recorded is
 * answered from that recording (no model call); any other call, and every call of a changed
 * agent, goes to the live model. A {@link ReplayTally} counts both, per agent, with tokens.
 * @module
 */
import { Usage } from '@openai/agents-core';
import type {
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from '@openai/agents-core';
import { matchRecording, type Recording } from './recordings.js';

/** Calls and tokens of one agent in a branch. */
export interface AgentTally {
  replayed: number;
  live: number;
  inputTokens: number;
  outputTokens: number;
}

/** Counts the model calls of a branch: answered from recordings, or made live. */
export class ReplayTally {
  readonly byAgent = new Map<string, AgentTally>();

  /** The tally of one agent (created at zero). */
  of(agent: string): AgentTally {
    let tally = this.byAgent.get(agent);
    if (!tally) {
      tally = { replayed: 0, live: 0, inputTokens: 0, outputTokens: 0 };
      this.byAgent.set(agent, tally);
    }
    return tally;
  }

  /** Calls answered from recordings, over every agent. */
  get replayed(): number {
    return [...this.byAgent.values()].reduce((sum, tally) => sum + tally.replayed, 0);
  }

  /** Calls made to live models, over every agent. */
  get live(): number {
    return [...this.byAgent.values()].reduce((sum, tally) => sum + tally.live, 0);
  }
}

/** Options of {@link BranchModel}. */
export interface BranchModelOptions {
  agent: string;
  /** The recorded calls of the chat (shared by every agent's model; each takes its own). */
  recordings: Recording[];
  /** The live model, resolved on the first live call (so a fully replayed branch needs no key). */
  live: () => Promise<Model>;
  tally: ReplayTally;
  /** Never answer from recordings (the agent was changed). */
  alwaysLive?: boolean;
  /** A label for traces (the original model's). */
  label?: string;
}

/** See the module comment. */
export class BranchModel implements Model {
  readonly name: string;
  readonly #options: BranchModelOptions;
  #live: Promise<Model> | undefined;

  constructor(options: BranchModelOptions) {
    this.#options = options;
    this.name = options.label ?? 'replay';
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const recorded = this.#recorded(request);
    if (recorded) return responseOf(recorded);
    // Counted before it is made: a live call that fails was still a call.
    const tally = this.#options.tally.of(this.#options.agent);
    tally.live += 1;
    const response = await (await this.#model()).getResponse(request);
    tally.inputTokens += response.usage.inputTokens;
    tally.outputTokens += response.usage.outputTokens;
    return response;
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const recorded = this.#recorded(request);
    if (!recorded) {
      const tally = this.#options.tally.of(this.#options.agent);
      tally.live += 1;
      for await (const event of (await this.#model()).getStreamedResponse(request)) {
        if (event.type === 'response_done') {
          tally.inputTokens += event.response.usage?.inputTokens ?? 0;
          tally.outputTokens += event.response.usage?.outputTokens ?? 0;
        }
        yield event;
      }
      return;
    }
    const response = responseOf(recorded);
    yield { type: 'response_started' };
    for (const item of response.output) {
      if (item.type !== 'message' || item.role !== 'assistant') continue;
      for (const part of item.content) {
        if (part.type === 'output_text' && part.text)
          yield { type: 'output_text_delta', delta: part.text };
      }
    }
    yield {
      type: 'response_done',
      response: {
        id: response.responseId ?? 'replayed',
        usage: {
          requests: 1,
          inputTokens: response.usage.inputTokens,
          outputTokens: response.usage.outputTokens,
          totalTokens: response.usage.totalTokens,
        },
        output: response.output as never,
      },
    };
  }

  #recorded(request: ModelRequest): Recording | undefined {
    if (this.#options.alwaysLive) return undefined;
    const hit = matchRecording(this.#options.recordings, this.#options.agent, request);
    if (!hit) return undefined;
    const tally = this.#options.tally.of(this.#options.agent);
    tally.replayed += 1;
    tally.inputTokens += hit.tokens?.inputTokens ?? 0;
    tally.outputTokens += hit.tokens?.outputTokens ?? 0;
    return hit;
  }

  #model(): Promise<Model> {
    this.#live ??= this.#options.live();
    return this.#live;
  }
}

function responseOf(recording: Recording): ModelResponse {
  const inputTokens = recording.tokens?.inputTokens ?? 0;
  const outputTokens = recording.tokens?.outputTokens ?? 0;
  return {
    output: structuredClone(recording.output) as AgentOutputItem[],
    usage: new Usage({
      requests: 1,
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
    }),
    responseId: `replayed_${recording.threadId.length}_${recording.position}`,
  };
}
