import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLiveProgress } from '../../../src/cli/progress/liveProgress.js';
import type { SpanRecord } from '../../../src/stores/traceStore.js';
import type { TraceRecorder } from '../../../src/tracing/recorder.js';

type Listener = Parameters<TraceRecorder['subscribe']>[0];

/** A recorder that only fans span events out to its subscribers. */
function fakeRecorder() {
  const listeners = new Set<Listener>();
  const recorder = {
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as TraceRecorder;
  const each = (fn: (listener: Listener) => void) => [...listeners].forEach(fn);
  const live = {} as Parameters<NonNullable<Listener['onSpanStart']>>[1];
  const start = (record: SpanRecord) => each((l) => l.onSpanStart?.(record, live));
  const end = (record: SpanRecord) => each((l) => l.onSpanEnd?.(record, live));
  const traceEnd = () => each((l) => void l.onTraceEnd?.({} as never, {} as never));
  return { recorder, listeners, start, end, traceEnd };
}

function sink(isTTY: boolean) {
  let text = '';
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    }),
    { isTTY, columns: 100, rows: 40 },
  );
  return { stream, text: () => text };
}

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const span = (
  id: string,
  parent: string | null,
  kind: SpanRecord['kind'],
  name: string,
  attributes: Record<string, unknown> = {},
  endMs?: number,
): SpanRecord => ({
  spanId: id,
  traceId: 'tr',
  parentId: parent,
  kind,
  name,
  startedAt: new Date(T0).toISOString(),
  ...(endMs === undefined ? {} : { endedAt: new Date(T0 + endMs).toISOString() }),
  attributes,
});

afterEach(() => vi.restoreAllMocks());

describe('startLiveProgress off a terminal', () => {
  it('writes one line per finished agent run, naming its caller and tokens', async () => {
    const { recorder, start, end } = fakeRecorder();
    const out = sink(false);
    const progress = await startLiveProgress(recorder, { stream: out.stream });
    start(span('a', null, 'agent', 'Boss'));
    start(span('s', 'a', 'send_message', 'send', { recipient: 'Helper' }));
    start(span('b', 's', 'agent', 'Helper', { caller: 'Boss' }));
    end(span('b', 's', 'agent', 'Helper', { caller: 'Boss' }, 1200));
    expect(out.text()).toBe('✓ Helper (asked by Boss)  1.2 s\n');
    end(span('a', null, 'agent', 'Boss', {}, 2000));
    expect(out.text().split('\n').filter(Boolean)).toHaveLength(2);
    progress.stop();
  });

  it('stops listening on stop, and starts a fresh tree for each trace', async () => {
    const { recorder, listeners, start, end, traceEnd } = fakeRecorder();
    const out = sink(false);
    const progress = await startLiveProgress(recorder, { stream: out.stream });
    expect(listeners.size).toBe(1);
    start(span('a', null, 'agent', 'First'));
    traceEnd();
    // The run of the finished trace is forgotten: its end writes nothing.
    end(span('a', null, 'agent', 'First', {}, 10));
    expect(out.text()).toBe('');
    progress.stop();
    expect(listeners.size).toBe(0);
  });

  it('writes footers to stdout as they come, and clear does nothing', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const progress = await startLiveProgress(fakeRecorder().recorder, {
      stream: sink(false).stream,
    });
    progress.appendFooter('partial ');
    progress.clear();
    expect(write).toHaveBeenCalledWith('partial ');
    progress.stop();
  });
});

describe('startLiveProgress on a terminal', () => {
  it('draws the tree of runs in place and leaves it on screen at the end', async () => {
    const { recorder, listeners, start, end, traceEnd } = fakeRecorder();
    const out = sink(true);
    const progress = await startLiveProgress(recorder, { stream: out.stream, intervalMs: 10_000 });
    start(span('a', null, 'agent', 'Boss'));
    expect(out.text()).toContain('Boss');
    progress.appendFooter('streamed answer');
    expect(out.text()).toContain('streamed answer');
    end(span('a', null, 'agent', 'Boss', {}, 500));
    traceEnd();
    const drawn = out.text().length;
    progress.stop();
    expect(listeners.size).toBe(0);
    // Nothing is drawn after stop.
    start(span('x', null, 'agent', 'Late'));
    expect(out.text().length).toBe(drawn);
  });

  it('draws nothing before the first span', async () => {
    const out = sink(true);
    vi.useFakeTimers();
    const progress = await startLiveProgress(fakeRecorder().recorder, {
      stream: out.stream,
      intervalMs: 5,
    });
    try {
      await vi.advanceTimersByTimeAsync(30); // six redraw ticks
      expect(out.text()).toBe('');
    } finally {
      progress.clear();
      progress.stop();
      vi.useRealTimers();
    }
  });
});
