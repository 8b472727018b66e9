import { describe, expect, it } from 'vitest';
import { layoutGraph } from '../../studio/src/lib/graphLayout.js';
import { formatHash, parseHash } from '../../studio/src/lib/hash.js';

describe('layoutGraph', () => {
  it('puts each node below the nodes it depends on, siblings side by side', () => {
    const nodes = ['user', 'coord', 'res', 'writer', 'editor'].map((id) => ({
      id,
      width: 100,
      height: 40,
    }));
    const edges = [
      { source: 'user', target: 'coord' },
      { source: 'coord', target: 'res' },
      { source: 'coord', target: 'writer' },
      { source: 'writer', target: 'editor' },
    ];
    const at = layoutGraph(nodes, edges);
    expect(at.user!.y).toBeLessThan(at.coord!.y);
    expect(at.coord!.y).toBeLessThan(at.res!.y);
    expect(at.res!.y).toBe(at.writer!.y);
    expect(at.res!.x).not.toBe(at.writer!.x);
    expect(at.writer!.y).toBeLessThan(at.editor!.y);
  });

  it('lays out left to right on request', () => {
    const at = layoutGraph(
      [
        { id: 'a', width: 50, height: 20 },
        { id: 'b', width: 50, height: 20 },
      ],
      [{ source: 'a', target: 'b' }],
      'LR',
    );
    expect(at.a!.x).toBeLessThan(at.b!.x);
    expect(at.a!.y).toBe(at.b!.y);
  });
});

describe('parseHash and formatHash', () => {
  it('round-trips a view and its params', () => {
    const route = { view: 'threads' as const, params: { agency: 'demo', chat: 'c 1' } };
    expect(parseHash(formatHash(route))).toEqual(route);
    expect(formatHash({ view: 'chat', params: { agency: 'demo', chat: '' } })).toBe(
      '#/chat?agency=demo',
    );
  });

  it('falls back to the agencies view', () => {
    expect(parseHash('')).toEqual({ view: 'agencies', params: {} });
    expect(parseHash('#/nope?x=1')).toEqual({ view: 'agencies', params: { x: '1' } });
  });
});
