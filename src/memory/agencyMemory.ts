/**
 * An agency's memory at work: the model input of a turn (recall block, compaction), the agent as
 * it runs for a user (working memory in its instructions, the update tool), and indexing after a
 * call. Memory faults never fail a call: the turn runs without what failed, and the log and the
 * trace say so. Recall, compaction and the working-memory tool load on first use.
 * @module
 */
import { Agent, getCurrentTrace, withCustomSpan } from '@openai/agents-core';
import type { CustomSpanData, Span } from '@openai/agents-core';
import type { AgentInputItem, Runner, Agent as SdkAgent } from '@openai/agents-core';
import { getDefaultLogger } from '../logger.js';
import type { ThreadStore } from '../stores/types.js';
import type { ConversationThread } from '../threads/conversationThread.js';
import { budgetedView } from '../threads/view.js';
import { threadIdFor } from '../threads/threadId.js';
import type { Summarize } from './compaction.js';
import type { Embedder } from './embedder.js';
import { assertSameEmbedding, type ResolvedMemory } from './options.js';
import type { MemoryOwner } from './recall.js';
import type { MemoryBackend } from './types.js';

/** One turn, as memory sees it. */
export interface MemoryTurn {
  chatId: string;
  userId: string | undefined;
  /** The agent that runs. */
  agent: string;
  /** The pair thread, with the new message already added after `length` items. */
  thread: ConversationThread;
  length: number;
  /** The thread's history as the agent's model input (before the new message). */
  history: AgentInputItem[];
  /** The new message as model input. */
  message: AgentInputItem[];
  /** Its text. */
  text: string;
}

const SUMMARY_INSTRUCTIONS =
  'You summarise conversations for an assistant that will continue them. Keep facts, names, ' +
  'decisions, open questions and the user’s preferences; drop small talk. Write plain prose, at ' +
  'most 200 words.';

/** The memory of one agency. */
export class AgencyMemory {
  readonly backend: MemoryBackend;
  readonly #config: ResolvedMemory;
  readonly #agency: string;
  readonly #runner: Runner;
  readonly #store: ThreadStore;
  readonly #entryPoints: readonly string[];
  readonly #ready: Promise<void>;

  constructor(
    config: ResolvedMemory,
    host: { agency: string; runner: Runner; store: ThreadStore; entryPoints: readonly string[] },
  ) {
    this.#config = config;
    this.backend = config.backend;
    this.#agency = host.agency;
    this.#runner = host.runner;
    this.#store = host.store;
    this.#entryPoints = host.entryPoints;
    const embedder = config.embedder;
    // Backends that cannot answer synchronously (Postgres, Redis) are checked now, in the
    // background: `ready()` (and the first call) fail when the stored vectors are of another embedder.
    this.#ready = embedder
      ? this.backend.embedding().then((stored) => assertSameEmbedding(stored, embedder))
      : Promise.resolve();
    this.#ready.catch(() => {}); // not unhandled: every use awaits #ready and gets its error
  }

  /**
   * Resolves once the memory store is reachable and its vectors are of the configured embedder;
   * rejects with a `ConfigError` naming the fix otherwise. Await it at start-up (the server does)
   * to fail before any call; calls await it too.
   */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** The embedder of recall, if configured. */
  get embedder(): Embedder | undefined {
    return this.#config.embedder;
  }

  #owner(userId: string): MemoryOwner {
    return { agency: this.#agency, userId };
  }

  /** The model input of a turn: history (compacted when over budget), recall block, message. */
  async modelInput(turn: MemoryTurn): Promise<AgentInputItem[]> {
    await this.#ready;
    const recalled = await this.#recall(turn);
    const tail = recalled ? [recalled, ...turn.message] : turn.message;
    const compaction = this.#config.compaction;
    if (!compaction) return [...turn.history, ...tail];
    try {
      const { compactedView } = await import('./compaction.js');
      const { items } = await compactedView({
        store: this.#store,
        backend: this.backend,
        thread: turn.thread,
        length: turn.length,
        as: turn.agent,
        tail,
        maxTokens: compaction.maxTokens,
        summarize: this.#summarize,
        owner: { agency: this.#agency, userId: turn.userId ?? null },
      });
      return items;
    } catch (error) {
      getDefaultLogger().warn(
        { err: error, agency: this.#agency, chatId: turn.chatId, agent: turn.agent },
        `agency "${this.#agency}": compaction failed; the oldest items are left out of the view instead`,
      );
      return budgetedView([...turn.history, ...tail], { maxTokens: compaction.maxTokens });
    }
  }

  readonly #summarize: Summarize = async (transcript, previous) => {
    const summarizer = new Agent({
      name: 'summarizer',
      instructions: SUMMARY_INSTRUCTIONS,
      model: this.#config.compaction!.summarizer,
    });
    const input =
      (previous ? `The summary so far:\n${previous}\n\nWhat followed:\n` : 'The conversation:\n') +
      transcript;
    const result = await this.#runner.run(summarizer, input);
    return String(result.finalOutput ?? '');
  };

  async #recall(turn: MemoryTurn): Promise<AgentInputItem | undefined> {
    const recall = this.#config.recall;
    const embedder = this.#config.embedder;
    if (!recall || !embedder || turn.userId === undefined || !turn.text.trim()) return undefined;
    if (!(recall.agents ?? this.#entryPoints).includes(turn.agent)) return undefined;
    const owner = this.#owner(turn.userId);
    const work = async (span: Span<CustomSpanData> | undefined) => {
      try {
        const { recallBlock, recallFor, withTimeout } = await import('./recall.js');
        const hits = await withTimeout(
          recallFor(this.#store, this.backend, embedder, {
            owner,
            chatId: turn.chatId,
            text: turn.text,
            exclude: new Set(turn.thread.items.slice(0, turn.length).map((item) => item.id)),
            topK: recall.topK,
            minSimilarity: recall.minSimilarity,
            scope: recall.scope,
          }),
          recall.timeoutMs,
          'memory recall',
        );
        if (span) span.spanData.data = { recalled: hits.length, scope: recall.scope };
        return hits.length > 0 ? recallBlock(hits) : undefined;
      } catch (error) {
        const message = (error as Error).message;
        span?.setError({ message: `recall skipped: ${message}` });
        getDefaultLogger().warn(
          { err: error, agency: this.#agency, chatId: turn.chatId, userId: turn.userId },
          `agency "${this.#agency}": memory recall failed (${message}); the turn runs without recall`,
        );
        return undefined;
      }
    };
    // In a traced call the recall is a span of its own (with its error, when it failed).
    return getCurrentTrace()
      ? withCustomSpan(work, { data: { name: 'memory recall', data: {} } })
      : work(undefined);
  }

  /** The agent as it runs for `userId`: working memory in its instructions, and its tool. */
  async agentFor(
    base: SdkAgent<any, any>,
    userId: string | undefined,
  ): Promise<SdkAgent<any, any>> {
    await this.#ready;
    const working = this.#config.working;
    if (!working || userId === undefined) return base;
    const owner = this.#owner(userId);
    const { workingInstructions, workingMemoryTool } = await import('./working.js');
    const document = await this.backend.getWorking(owner.agency, owner.userId);
    const block = workingInstructions(document?.content, working.schema !== undefined);
    const own = base.instructions;
    return base.clone({
      tools: [...base.tools, workingMemoryTool(this.backend, owner, working.schema)],
      instructions: async (runContext: any, self: SdkAgent<any, any>) => {
        const text = typeof own === 'function' ? await own(runContext, self) : own;
        return [text, block].filter((part) => part && part.trim()).join('\n\n');
      },
    });
  }

  /** After a call: index the chat's entry threads for recall (failures are logged, retried next call). */
  async afterCall(chatId: string, userId: string | undefined): Promise<void> {
    const embedder = this.#config.embedder;
    if (!this.#config.recall || !embedder || userId === undefined) return;
    const threadIds = this.#entryPoints.map((agent) => threadIdFor(chatId, agent, null));
    try {
      const { indexThreads, withTimeout } = await import('./recall.js');
      await withTimeout(
        indexThreads(this.#store, this.backend, embedder, this.#owner(userId), threadIds),
        this.#config.recall.timeoutMs,
        'memory indexing',
      );
    } catch (error) {
      getDefaultLogger().warn(
        { err: error, agency: this.#agency, chatId, userId },
        `agency "${this.#agency}": indexing the chat for recall failed (${(error as Error).message}); the next call of this chat retries`,
      );
    }
  }
}
