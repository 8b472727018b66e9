/**
 * Checks a run's outputs against what an llm-orc ensemble documents in its `validation:`
 * section: `structural.required_agents` (each ran and succeeded) and `schema` (each listed
 * agent's output has the `required_fields`). Behavioral assertions are Python expressions;
 * they are counted but not evaluated (Colloquy never evaluates code from files).
 * @module
 */

/** What {@link checkDocumentedOutputs} found. */
export interface DocumentedCheck {
  /** Whether the ensemble documents anything checkable. */
  documented: boolean;
  /** Checks that held and those that did not (one line each). */
  passed: string[];
  failed: string[];
  /** Behavioral assertions present but not evaluated. */
  skippedAssertions: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/**
 * Compares agent results with an ensemble's `validation:` section.
 *
 * @example
 * ```ts
 * const check = checkDocumentedOutputs(ensemble.llmorc?.validation, { count: { status: 'success', output: { words: 3 } } });
 * ```
 */
export function checkDocumentedOutputs(
  validation: unknown,
  results: Record<string, { status: string; output?: Record<string, unknown> }>,
): DocumentedCheck {
  const check: DocumentedCheck = {
    documented: false,
    passed: [],
    failed: [],
    skippedAssertions: 0,
  };
  if (!isRecord(validation)) return check;
  const structural = isRecord(validation.structural) ? validation.structural : {};
  const required = Array.isArray(structural.required_agents) ? structural.required_agents : [];
  for (const agent of required.map(String)) {
    check.documented = true;
    const result = results[agent];
    (result?.status === 'success' ? check.passed : check.failed).push(
      `required agent ${agent}: ${result?.status ?? 'did not run'}`,
    );
  }
  const schema = Array.isArray(validation.schema) ? validation.schema : [];
  for (const entry of schema.filter(isRecord)) {
    const agent = String(entry.agent ?? '');
    const fields = Array.isArray(entry.required_fields) ? entry.required_fields.map(String) : [];
    if (!agent || fields.length === 0) continue;
    check.documented = true;
    const output = results[agent]?.output ?? {};
    const missing = fields.filter((field) => !(field in output));
    (missing.length === 0 ? check.passed : check.failed).push(
      missing.length === 0
        ? `${agent} has ${fields.join(', ')}`
        : `${agent} lacks ${missing.join(', ')}`,
    );
  }
  const behavioral = Array.isArray(validation.behavioral) ? validation.behavioral : [];
  check.skippedAssertions = behavioral.length;
  return check;
}
