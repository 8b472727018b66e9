/** SocketSseStream ends a body with its last events in one write (`end(text)`), not `write` + `end`. */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SocketSseStream } from '../../src/server/sseSocket.js';

/** The part of a ServerResponse the stream uses, recording its calls. */
class RecordingResponse extends EventEmitter {
  readonly calls: string[] = [];
  headersSent = false;
  writableNeedDrain = false;
  writableFinished = false;
  writeHead(status: number): this {
    this.headersSent = true;
    this.calls.push(`head ${status}`);
    return this;
  }
  write(text: string): boolean {
    this.calls.push(`write ${text}`);
    return true;
  }
  end(text?: string): this {
    this.calls.push(text === undefined ? 'end' : `end ${text}`);
    this.writableFinished = true;
    return this;
  }
}

const response = () => new Response(null, { status: 200 });

describe('SocketSseStream.close', () => {
  it('writes the events of its last turn with the end of the body', async () => {
    const outgoing = new RecordingResponse();
    const stream = new SocketSseStream(outgoing as unknown as ServerResponse, response);
    await stream.writeSSE({ data: 'a', id: '0' });
    await stream.writeSSE({ data: 'b' });
    stream.close();
    expect(outgoing.calls).toEqual(['head 200', 'end data: a\nid: 0\n\ndata: b\n\n']);
    // The flush the writes scheduled finds nothing left to write.
    await new Promise((resolve) => setImmediate(resolve));
    expect(outgoing.calls).toHaveLength(2);
  });

  it('ends with nothing more when everything was written already', async () => {
    const outgoing = new RecordingResponse();
    const stream = new SocketSseStream(outgoing as unknown as ServerResponse, response);
    await stream.writeSSE({ data: 'a' });
    await new Promise((resolve) => setImmediate(resolve));
    stream.close();
    expect(outgoing.calls).toEqual(['head 200', 'write data: a\n\n', 'end']);
  });
});
