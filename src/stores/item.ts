/**
 * The unit of a thread's log: one protocol item (a message, a tool call, a tool result...) in the
 * `@openai/agents-core` input-item shape, plus who produced it and when.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';

/** Who produced an item, so that nested conversations can be told apart and drawn as a tree. */
export interface ItemMeta {
  /** The agent whose run produced the item (for a user message: the agent that received it). */
  agent: string;
  /** The agent that called `agent` through send_message, or `null` when the user did. */
  callerAgent: string | null;
  /** The run (one Runner.run of `agent`) that produced the item. */
  runId: string;
  /** The caller's run, or `null` at the top level. */
  parentRunId: string | null;
  /** ISO-8601 time the item was recorded. */
  createdAt: string;
}

/** One entry of a thread: an id that is unique within the thread, the protocol item, its origin. */
export interface ThreadItem {
  /** Unique within its thread; used to fork at an item. */
  id: string;
  /** The item exactly as the model saw or produced it. */
  item: AgentInputItem;
  /** Origin of the item; absent for items imported without it. */
  meta?: ItemMeta;
}
