/**
 * Cycles made only of unconditional dependencies (none of their agents could ever start), found
 * without recursion so that a chain of thousands of agents cannot overflow the stack.
 * @module
 */

type Raw = Record<string, unknown>;

const asRecord = (value: unknown): Raw | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : undefined;

/** An agent's dependency list as written (`depends_on`, or llm-orc's `dependencies`). */
export function depsOf(agent: Raw): { key: string; list: unknown[] } {
  const key = agent.depends_on !== undefined ? 'depends_on' : 'dependencies';
  return { key, list: Array.isArray(agent[key]) ? (agent[key] as unknown[]) : [] };
}

/**
 * Unconditional edges agent -> dependency; returns each cycle once, as names. Iterative (an
 * explicit stack), so a chain of thousands of agents cannot overflow the call stack.
 */
export function unconditionalCycles(agents: Raw[]): { index: number; cycle: string[] }[] {
  const edges = new Map<string, string[]>();
  const indexOf = new Map<string, number>();
  agents.forEach((agent, index) => {
    if (typeof agent.name !== 'string') return;
    if (!indexOf.has(agent.name)) indexOf.set(agent.name, index);
    const targets = depsOf(agent).list.flatMap((dep) => {
      if (typeof dep === 'string') return [dep];
      const object = asRecord(dep);
      return object && object.condition === undefined && typeof object.agent_name === 'string'
        ? [object.agent_name]
        : [];
    });
    edges.set(agent.name, targets);
  });
  const found: { index: number; cycle: string[] }[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const position = new Map<string, number>();
  for (const root of edges.keys()) {
    if (state.has(root)) continue;
    const frames: { name: string; next: number }[] = [{ name: root, next: 0 }];
    state.set(root, 'open');
    position.set(root, path.push(root) - 1);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const targets = edges.get(frame.name) ?? [];
      if (frame.next >= targets.length) {
        frames.pop();
        path.pop();
        position.delete(frame.name);
        state.set(frame.name, 'done');
        continue;
      }
      const next = targets[frame.next++]!;
      if (state.get(next) === 'open') {
        const cycle = [...path.slice(position.get(next)), next];
        found.push({ index: indexOf.get(next) ?? 0, cycle });
      } else if (!state.has(next) && edges.has(next)) {
        state.set(next, 'open');
        position.set(next, path.push(next) - 1);
        frames.push({ name: next, next: 0 });
      }
    }
  }
  return found;
}
