/**
 * The names of Colloquy's bundled primitives, apart from their code: resolving a script reference
 * needs only the names, so a run loads a primitive's code only when it runs one.
 * @module
 */

/** The primitives' llm-orc names. */
export const PRIMITIVE_NAMES: readonly string[] = [
  'read_file',
  'write_file',
  'json_extract',
  'replicate_n_times',
  'get_user_input',
  'confirm_action',
];

/** Primitives that ask the user. */
export const INTERACTIVE_PRIMITIVES: ReadonlySet<string> = new Set([
  'get_user_input',
  'confirm_action',
]);

/**
 * The primitive a script reference names, or undefined: its file name without extension, with
 * hyphens read as underscores (`primitives/file-ops/read-file.py` is `read_file`).
 */
export function primitiveNameOf(ref: string): string | undefined {
  const base = ref
    .split(/[\\/]/)
    .at(-1)!
    .replace(/\.[A-Za-z]+$/, '')
    .replaceAll('-', '_');
  return PRIMITIVE_NAMES.includes(base) ? base : undefined;
}
