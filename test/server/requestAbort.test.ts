/** requestController: a non-streamed call's controller, aborted when the client goes away. */
import { EventEmitter } from 'node:events';
import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { requestController } from '../../src/server/requestAbort.js';

/** A context as `@hono/node-server` gives it: the Node request and response in `c.env`. */
function nodeContext(state: { destroyed?: boolean; errored?: Error }) {
  const outgoing = Object.assign(new EventEmitter(), {
    destroyed: state.destroyed ?? false,
    writableFinished: false,
    setHeader() {},
    writeHead() {},
  });
  const c = {
    env: { incoming: { errored: state.errored ?? null }, outgoing },
    req: {
      get raw(): never {
        throw new Error('the web request (and its signal) must not be read on Node');
      },
    },
  } as unknown as Context;
  return { c, outgoing };
}

describe('requestController', () => {
  it("on Node, the response closing before its answer aborts it, without the request's signal", () => {
    const { c, outgoing } = nodeContext({});
    const controller = requestController(c);
    expect(controller.signal.aborted).toBe(false);
    outgoing.emit('close');
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe('Client connection prematurely closed.');
  });

  it('a response closed after its answer was written aborts nothing', () => {
    const { c, outgoing } = nodeContext({});
    const controller = requestController(c);
    outgoing.writableFinished = true;
    outgoing.emit('close');
    expect(controller.signal.aborted).toBe(false);
  });

  it('a client gone before the route asks is aborted at once; a request error is the reason', () => {
    expect(requestController(nodeContext({ destroyed: true }).c).signal.reason).toBe(
      'Client connection prematurely closed.',
    );
    const { c, outgoing } = nodeContext({ errored: new Error('bad chunk') });
    const controller = requestController(c);
    outgoing.emit('close');
    expect(controller.signal.reason).toBe('Error: bad chunk');
  });

  it("elsewhere (app.request()), it follows the web request's signal", () => {
    const client = new AbortController();
    const c = { env: undefined, req: { raw: { signal: client.signal } } } as unknown as Context;
    const controller = requestController(c);
    expect(controller.signal.aborted).toBe(false);
    client.abort('bye');
    expect(controller.signal.reason).toBe('bye');

    const gone = new AbortController();
    gone.abort('already');
    const early = { env: undefined, req: { raw: { signal: gone.signal } } } as unknown as Context;
    expect(requestController(early).signal.reason).toBe('already');
  });
});
