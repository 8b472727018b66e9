/**
 * The studio's location, in the URL hash (`#/chat?agency=demo&chat=…`), so views can be linked
 * and the browser's back button works. Pure parsing and formatting.
 * @module
 */
export const VIEWS = [
  'agencies',
  'chat',
  'threads',
  'time',
  'compare',
  'traces',
  'network',
  'ensembles',
  'evals',
] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  view: View;
  params: Record<string, string>;
}

/** Reads a hash such as `#/threads?chat=c1`; unknown views fall back to `agencies`. */
export function parseHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const view = (VIEWS as readonly string[]).includes(path) ? (path as View) : 'agencies';
  return { view, params: Object.fromEntries(new URLSearchParams(query)) };
}

/** The hash of a route; empty params are left out. */
export function formatHash(route: Route): string {
  const params = new URLSearchParams(
    Object.entries(route.params).filter(([, value]) => value !== ''),
  ).toString();
  return `#/${route.view}${params ? `?${params}` : ''}`;
}
