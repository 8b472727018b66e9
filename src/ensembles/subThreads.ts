/**
 * The sub-threads of a workflow as {@link WorkflowThread} keeps them in memory: each one's items,
 * read once from the store; beside them, each item's model message (`item`), so that building an
 * agent's input copies references without visiting every entry; and the items staged for the
 * workflow's next write.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';
import type { ThreadItem } from '../stores/item.js';

/** Staged items taken out for a write, by thread id (see {@link SubThreadCache.take}). */
export type TakenItems = [string, ThreadItem[]][];

/** Cached and staged items of a workflow's sub-threads, by thread id. */
export class SubThreadCache {
  readonly #entries = new Map<string, ThreadItem[]>();
  /** The `item` of each cached entry, in step with #entries. */
  readonly #inputs = new Map<string, AgentInputItem[]>();
  /** Items staged by thread id, not yet written. */
  readonly #pending = new Map<string, ThreadItem[]>();

  /** The cached entries of a thread (a view), or undefined when it was never read. */
  entries(id: string): ThreadItem[] | undefined {
    return this.#entries.get(id);
  }

  /** The cached model messages of a thread (a view), or undefined when it was never read. */
  inputs(id: string): AgentInputItem[] | undefined {
    return this.#inputs.get(id);
  }

  /** Caches a thread as read from the store. */
  set(id: string, entries: ThreadItem[]): void {
    this.#entries.set(id, entries);
    this.#inputs.set(
      id,
      entries.map((entry) => entry.item),
    );
  }

  /** Adds written or staged items to a cached thread (nothing when it is not cached). */
  add(id: string, items: readonly ThreadItem[]): void {
    const entries = this.#entries.get(id);
    const inputs = this.#inputs.get(id);
    if (!entries || !inputs) return;
    for (const entry of items) {
      entries.push(entry);
      inputs.push(entry.item);
    }
  }

  /** Stages items for the next write (and caches them). */
  stage(id: string, items: readonly ThreadItem[]): void {
    const staged = this.#pending.get(id);
    if (staged) staged.push(...items);
    else this.#pending.set(id, [...items]);
    this.add(id, items);
  }

  /** How many items of a thread are staged. */
  stagedCount(id: string): number {
    return this.#pending.get(id)?.length ?? 0;
  }

  /**
   * Takes the staged items out for a write (of one thread, or of all): items staged while it is
   * being written wait for the next one. Give them back with {@link restage} if it fails.
   */
  take(id?: string): TakenItems {
    if (id === undefined) {
      const taken = [...this.#pending];
      this.#pending.clear();
      return taken;
    }
    const staged = this.#pending.get(id);
    this.#pending.delete(id);
    return staged ? [[id, staged]] : [];
  }

  /** Puts back staged items a failed write took, before any staged since. */
  restage(taken: TakenItems): void {
    for (const [id, staged] of taken) {
      const later = this.#pending.get(id);
      this.#pending.set(id, later ? [...staged, ...later] : staged);
    }
  }

  /**
   * Cuts a thread back to `version` items, of which `written` are in the store: staged items
   * beyond it are dropped. Returns true when written items must be cut in the store too (all
   * staged ones are dropped then).
   */
  cut(id: string, version: number, written: number): boolean {
    const staged = this.#pending.get(id);
    const inStore = version < written;
    if (staged && !inStore) staged.splice(version - written);
    if (inStore || staged?.length === 0) this.#pending.delete(id);
    this.#entries.get(id)?.splice(version);
    this.#inputs.get(id)?.splice(version);
    return inStore;
  }
}
