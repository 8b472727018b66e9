/**
 * `docs/server.md`'s route table lists exactly the server's routes: `ROUTE_POLICIES` is the list
 * every route of `createApp` must be in (the ownership test enumerates `app.routes` against it), so
 * a route added without a line in the docs, or a documented route that no longer exists, fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTE_POLICIES } from '../../src/server/ownership/policies.js';

/** `METHOD path` of each row of the docs' route tables, parameters normalised. */
function documentedRoutes(markdown: string): Set<string> {
  const rows = markdown
    .split('\n')
    .map((line) => /^\| `((?:GET|POST|PUT|PATCH|DELETE|ALL) \/[^`]*)`/.exec(line)?.[1])
    .filter((route): route is string => route !== undefined);
  return new Set(rows.map(normalise));
}

const normalise = (route: string): string => route.replace(/:[A-Za-z]+/g, ':param');

describe('docs/server.md route table', () => {
  const documented = documentedRoutes(readFileSync('docs/server.md', 'utf8'));
  const served = new Set(Object.keys(ROUTE_POLICIES).map(normalise));

  it('documents every route the server has', () => {
    expect([...served].filter((route) => !documented.has(route))).toEqual([]);
  });

  it('documents no route the server lacks', () => {
    expect([...documented].filter((route) => !served.has(route))).toEqual([]);
  });
});
