/**
 * Path parameters of OpenAPI tools stay inside their segment. A model (perhaps prompt-injected)
 * chooses their values, so every value is percent-encoded with `encodeURIComponent` (`/` becomes
 * `%2F`), and a value that could still climb out is refused: an empty value, and any value with
 * a dot segment (`.` or `..`, also written `%2e`) between its `/` or `\` separators, since URL
 * parsers resolve dot segments away and some servers decode `%2F` before routing.
 * @module
 */

/** Dot segments, plain or percent-encoded (`%2e`), that URL parsers resolve away. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Why `value` cannot be the path parameter `name`, or undefined when it can. */
export function pathValueProblem(name: string, value: string): string | undefined {
  const hint = `Pass the ${name} value itself (one path segment), not a path.`;
  if (value === '') return `path parameter "${name}" is empty. ${hint}`;
  const parts = value.split(/[/\\]|%2f|%5c/i);
  if (parts.some((part) => DOT_SEGMENT.test(part)))
    return `path parameter "${name}" is "${value.slice(0, 80)}", which holds a dot segment ("." or "..") that would reach another path. ${hint}`;
  return undefined;
}

/**
 * `template` (e.g. `/users/{id}/notes`) with each path parameter replaced by its encoded value.
 * Throws an Error naming the parameter for a value that would leave its segment.
 */
export function fillPath(template: string, values: ReadonlyMap<string, string>): string {
  let out = template;
  for (const [name, value] of values) {
    const problem = pathValueProblem(name, value);
    if (problem !== undefined) throw new Error(`Refused: ${problem}`);
    out = out.replaceAll(`{${name}}`, encodeURIComponent(value));
  }
  return out;
}
