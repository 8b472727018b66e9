/**
 * External `$ref`s of an OpenAPI document are fetched by the parser itself, so with an
 * allow-list of hosts they are checked before the parser sees the document: a `$ref` to an
 * absolute URL (or, for a document loaded by URL, a relative one resolved against it) whose host
 * is not allowed is refused, naming the `$ref` and its JSON path.
 * @module
 */
import { assertHostAllowed } from './openApiFetch.js';

/** Every `$ref` string of `value` with its JSON path (`paths./a.get…`). */
export function refsOf(value: unknown, at = '#'): Array<{ ref: string; path: string }> {
  const found: Array<{ ref: string; path: string }> = [];
  const stack: Array<[unknown, string]> = [[value, at]];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string') found.push({ ref: child, path });
      else stack.push([child, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`]);
    }
  }
  return found;
}

/**
 * Throws a ConfigError when a `$ref` of `document` points at a host off `allowedHosts` (nothing
 * to check without an allow-list). Refs inside the document (`#/…`) and to files are allowed.
 */
export function assertRefHostsAllowed(
  document: unknown,
  specUrl: string | undefined,
  allowedHosts: readonly string[] | undefined,
): void {
  if (allowedHosts === undefined) return;
  for (const { ref, path } of refsOf(document)) {
    if (ref.startsWith('#')) continue;
    let url: URL;
    try {
      url = specUrl ? new URL(ref, specUrl) : new URL(ref);
    } catch {
      continue; // a relative file reference of a document read from disk
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    assertHostAllowed(url, allowedHosts, `openApiTools: the $ref "${ref}" at ${path}`);
  }
}
