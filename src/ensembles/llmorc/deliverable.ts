/**
 * llm-orc's single deliverable of a run: the one text an ensemble hands to whoever ran it as a
 * child (a `dispatch:` or `ensemble:` agent). It is the response of the terminal agent (one no
 * other agent depends on; the last such in file order that succeeded with content), else the
 * last agent in file order that did. llm-orc's scripts that unwrap a dispatched round read it.
 * @module
 */
import type { ConversationResult } from '../runState.js';
import type { EnsembleAgent } from '../schema.js';
import { responseText } from './scriptProtocol.js';

/** The run's deliverable text, or undefined when no agent produced any. */
export function deliverableOf(
  result: ConversationResult,
  agents: ReadonlyArray<Pick<EnsembleAgent, 'name' | 'depends_on'>>,
): string | undefined {
  const latest = new Map<string, string>();
  for (const turn of result.conversation_history) {
    if ((turn.status ?? 'success') !== 'success') latest.delete(turn.agent_name);
    else {
      const text = responseText(turn.output_data);
      if (text) latest.set(turn.agent_name, text);
      else latest.delete(turn.agent_name);
    }
  }
  const dependedOn = new Set(agents.flatMap((agent) => agent.depends_on.map((d) => d.agent_name)));
  const terminals = agents.filter((agent) => !dependedOn.has(agent.name));
  for (const candidates of [terminals, agents])
    for (let i = candidates.length - 1; i >= 0; i--) {
      const text = latest.get(candidates[i]!.name);
      if (text !== undefined) return text;
    }
  return undefined;
}
