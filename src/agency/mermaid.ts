/**
 * The agency graph as a Mermaid flowchart, for READMEs and docs: the user, the entry points it
 * talks to, and an arrow per communication flow (`send_message`).
 * @module
 */

/** What {@link agencyToMermaid} reads: an {@link Agency} has all of it. */
export interface MermaidGraphSource {
  readonly agents: ReadonlyMap<string, unknown>;
  readonly entryPoints: readonly string[];
  readonly flows: ReadonlyArray<readonly [string, string]>;
}

/** Options of {@link agencyToMermaid}. */
export interface MermaidOptions {
  /** Flowchart direction (default `TD`, top-down). */
  direction?: 'TD' | 'LR' | 'BT' | 'RL';
  /** Label of the user node (default `User`). */
  userLabel?: string;
}

/** Escapes a label for a Mermaid `["..."]` node: quotes and angle brackets become entities. */
function label(text: string): string {
  return text.replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
}

/**
 * Renders an agency as Mermaid `flowchart` text. Node ids are `a0`, `a1`… in agent order, so
 * any agent name is safe; names appear as labels.
 *
 * @example
 * ```ts
 * console.log(agencyToMermaid(agency));
 * // flowchart TD
 * //   user(["User"])
 * //   a0["Coordinator"]
 * //   user --> a0
 * //   a0 -->|send_message| a1
 * ```
 */
export function agencyToMermaid(source: MermaidGraphSource, options: MermaidOptions = {}): string {
  const ids = new Map([...source.agents.keys()].map((name, i) => [name, `a${i}`]));
  const lines = [`flowchart ${options.direction ?? 'TD'}`];
  lines.push(`  user(["${label(options.userLabel ?? 'User')}"])`);
  for (const [name, id] of ids) lines.push(`  ${id}["${label(name)}"]`);
  for (const entry of source.entryPoints) {
    const id = ids.get(entry);
    if (id) lines.push(`  user --> ${id}`);
  }
  for (const [sender, recipient] of source.flows) {
    const from = ids.get(sender);
    const to = ids.get(recipient);
    if (from && to) lines.push(`  ${from} -->|send_message| ${to}`);
  }
  return `${lines.join('\n')}\n`;
}
