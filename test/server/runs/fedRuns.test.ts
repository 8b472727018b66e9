/**
 * A background call whose events can be fed (`streamCall`, what an agency streams) is recorded as
 * it emits each event, with no promise per event; `run_completed` still waits for `onCompleted`,
 * a failure still ends the run with `run_failed`, and a cancel still stops it at once.
 */
import type { AgencyResponse } from '../../../src/agency/result.js';
import { describe, expect, it } from 'vitest';
import type { AgencyStreamEvent } from '../../../src/agency/events.js';
import { streamCall } from '../../../src/agency/streaming.js';
import type { CallExecutor } from '../../../src/server/executor.js';
import { CallRuns } from '../../../src/server/runs/callRuns.js';
import { doneResult } from './helpers.js';

const result = doneResult;
const delta = (text: string) =>
  ({
    type: 'raw_model_stream_event',
    agent: 'A',
    depth: 0,
    data: { type: 'output_text_delta', delta: text },
  }) as AgencyStreamEvent;

const unused = {} as CallExecutor; // startWith gets its events from the spec

/** A call that emits what the test tells it to, and ends when told. */
function controlled() {
  let emit!: (event: AgencyStreamEvent) => void;
  let finish!: (outcome: AgencyResponse | Error) => void;
  let signal!: AbortSignal;
  const events = (outer: AbortSignal) =>
    streamCall(outer, (given, send) => {
      emit = send;
      signal = given;
      return new Promise<AgencyResponse>((resolve, reject) => {
        finish = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
      });
    });
  return {
    events,
    emit: (e: AgencyStreamEvent) => emit(e),
    finish: (o: AgencyResponse | Error) => finish(o),
    signal: () => signal,
  };
}

async function types(runs: CallRuns, runId: string): Promise<string[]> {
  const out: string[] = [];
  for await (const [, event] of runs.follow(runId)) out.push(event.type);
  return out;
}

describe('a fed background call', () => {
  it('records each event as the call emits it, and run_completed after onCompleted', async () => {
    const runs = new CallRuns(unused);
    const call = controlled();
    let completedSeen = -1;
    const { summary, done } = await runs.startWith({
      agency: 'a',
      chatId: 'c1',
      events: call.events,
      onCompleted: async () => {
        completedSeen = (await runs.state(summary.runId))!.events;
      },
    });
    call.emit(delta('a'));
    call.emit(delta('b'));
    // In the log on return from emit: no turn of the event loop, no promise in between.
    expect((await runs.state(summary.runId))!.events).toBe(3);
    call.finish(result);
    await done;
    expect(completedSeen).toBe(3); // onCompleted ran before run_completed was recorded
    expect(await types(runs, summary.runId)).toEqual([
      'run_started',
      'raw_model_stream_event',
      'raw_model_stream_event',
      'run_completed',
    ]);
    expect((await runs.state(summary.runId))!.status).toBe('completed');
  });

  it('ends a failed call with run_failed carrying its error', async () => {
    const runs = new CallRuns(unused);
    const call = controlled();
    const { summary, done } = await runs.startWith({
      agency: 'a',
      chatId: 'c1',
      events: call.events,
    });
    call.emit(delta('a'));
    call.finish(new TypeError('model down'));
    await done;
    const state = (await runs.state(summary.runId))!;
    expect(state.status).toBe('failed');
    expect(state.error?.message).toMatch(/model down/);
    expect(await types(runs, summary.runId)).toEqual([
      'run_started',
      'raw_model_stream_event',
      'run_failed',
    ]);
  });

  it('stops at once on cancel, aborting the call, and records nothing it emits afterwards', async () => {
    const runs = new CallRuns(unused);
    const call = controlled();
    const { summary, done } = await runs.startWith({
      agency: 'a',
      chatId: 'c1',
      events: call.events,
    });
    call.emit(delta('a'));
    expect(await runs.cancel(summary.runId, 'stop', 0)).toBe(true);
    await done; // the call itself never ends: the run does not wait for it
    expect(call.signal().aborted).toBe(true);
    call.emit(delta('late'));
    const state = (await runs.state(summary.runId))!;
    expect(state.status).toBe('cancelled');
    expect(await types(runs, summary.runId)).toEqual([
      'run_started',
      'raw_model_stream_event',
      'run_failed',
    ]);
  });
});
