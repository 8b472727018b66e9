/**
 * Live progress of agency calls and ensemble runs in the terminal. On a TTY, a tree of agent runs
 * redrawn in place (`liveRegion.ts`: elapsed time, tokens, spinner); off a TTY, one line per
 * finished run. Fed by the trace recorder's span events, so agencies and ensembles share it.
 * @module
 */
import type { SpanRecord } from '../../stores/traceStore.js';
import type { TraceRecorder } from '../../tracing/recorder.js';
import { createLiveRegion, type LiveRegionStream } from './liveRegion.js';
import { finishedLine, renderRunTree, RunTree } from './runTree.js';

/** Options of {@link startLiveProgress}. */
export interface LiveProgressOptions {
  /** Where progress goes (default stderr). */
  stream?: LiveRegionStream;
  /** Redraw in place (default: when the stream is a TTY). */
  live?: boolean;
  /** Redraw interval in ms (default 100). */
  intervalMs?: number;
}

/** A running progress display; `stop` leaves the last tree on screen. */
export interface LiveProgress {
  stop(): void;
  /** Clears the live tree (e.g. before printing an answer); it comes back on the next span. */
  clear(): void;
  /** Text shown under the live tree (a streaming answer); off a TTY it is written as it comes. */
  appendFooter(text: string): void;
}

/**
 * Shows progress of every trace the recorder sees until `stop`.
 *
 * @example
 * ```ts
 * const progress = await startLiveProgress(getTraceRecorder());
 * await agency.getResponse('hi');
 * progress.stop();
 * ```
 */
export async function startLiveProgress(
  recorder: TraceRecorder,
  options: LiveProgressOptions = {},
): Promise<LiveProgress> {
  const stream = options.stream ?? process.stderr;
  const live = options.live ?? Boolean(stream.isTTY);
  let tree = new RunTree();
  const labels = new Map<string, string>();
  if (!live) {
    const unsubscribe = recorder.subscribe({
      onSpanStart(span) {
        const node = tree.start(span);
        if (node) labels.set(span.spanId, node.label);
      },
      onSpanEnd(span: SpanRecord) {
        const node = tree.end(span);
        if (!node) return;
        const caller =
          typeof span.attributes.caller === 'string' ? span.attributes.caller : undefined;
        stream.write(`${finishedLine(node, caller)}\n`);
      },
      onTraceEnd() {
        tree = new RunTree();
      },
    });
    return {
      stop: unsubscribe,
      clear: () => {},
      appendFooter: (text) => void process.stdout.write(text),
    };
  }
  const region = createLiveRegion(stream);
  let frame = 0;
  let shown = false;
  let footer = '';
  const draw = () => {
    const lines = renderRunTree(tree, Date.now(), frame);
    if (lines.length === 0 && footer === '') return;
    region.render([...lines, ...(footer ? ['', footer] : [])].join('\n'));
    shown = true;
  };
  const timer = setInterval(() => {
    frame += 1;
    draw();
  }, options.intervalMs ?? 100);
  timer.unref();
  const unsubscribe = recorder.subscribe({
    onSpanStart(span) {
      if (tree.start(span)) draw();
    },
    onSpanEnd(span) {
      tree.end(span);
      draw();
    },
    onTraceEnd() {
      draw();
      if (shown) region.done();
      shown = false;
      footer = '';
      tree = new RunTree();
    },
  });
  return {
    stop() {
      clearInterval(timer);
      unsubscribe();
      if (shown) region.done();
    },
    clear() {
      if (shown) region.clear();
    },
    appendFooter(text) {
      footer += text;
      draw();
    },
  };
}
