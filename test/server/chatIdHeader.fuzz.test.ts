/**
 * Chat ids of any script on the wire (issue 25): the `x-colloquy-chat-id` header carries them
 * percent-encoded, over a real listener (where a raw non-ByteString header would fail), and ids
 * that are not valid text get a 400 naming the field. The property: any well-formed id round-trips
 * through the header and any `user` gets 200 or 400 on a real server, never 500.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHAT_ID_HEADER,
  decodeChatIdHeader,
  encodeChatIdHeader,
} from '../../src/server/chatIdHeader.js';
import { responseIdFor } from '../../src/server/routes/openaiResponses.js';
import { checkProperty, fuzzRuns, fuzzTimeout } from '../setup/fuzz.js';
import { echoAgency, json, listen, post } from './helpers.js';

const chat = (user: string) => ({
  model: 'echo',
  messages: [{ role: 'user', content: 'hi' }],
  user,
});

describe('encodeChatIdHeader / decodeChatIdHeader', () => {
  it('keeps plain ASCII ids as they are and escapes the rest as UTF-8', () => {
    expect(encodeChatIdHeader('chat_1-a.b')).toBe('chat_1-a.b');
    expect(encodeChatIdHeader('über 50%')).toBe('%C3%BCber%2050%25');
    expect(decodeChatIdHeader('%C3%BCber%2050%25')).toBe('über 50%');
  });

  it('round-trips any well-formed text and yields a ByteString of visible ASCII', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), (id) => {
        const header = encodeChatIdHeader(id);
        expect(header).toMatch(/^[\x21-\x7e]+$/);
        expect(decodeChatIdHeader(header)).toBe(id);
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  it('refuses a broken escape or bytes that are not UTF-8, naming the header', () => {
    for (const bad of ['50%off', '%', '%C3', '%FF%FE']) {
      expect(() => decodeChatIdHeader(bad)).toThrow(/x-colloquy-chat-id header/);
    }
    expect(() => encodeChatIdHeader('\udbff')).toThrow(/lone UTF-16 surrogate/);
  });
});

describe('chat ids of any script over HTTP', () => {
  it('answers /v1/chat/completions with user "チャット-1" and the id encoded in the header', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const res = await post(`${server.url}/v1/chat/completions`, chat('チャット-1'));
    expect(res.status).toBe(200);
    expect(decodeChatIdHeader(res.headers.get(CHAT_ID_HEADER)!)).toBe('チャット-1');
    const threads = await json(
      await fetch(`${server.url}/chats/${encodeURIComponent('チャット-1')}/threads`),
    );
    expect(threads.agency).toBe('echo');
  });

  it('continues a /v1/responses chat whose id is "über-日本" through previous_response_id', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const first = await post(`${server.url}/v1/responses`, {
      model: 'echo',
      input: 'one',
      previous_response_id: responseIdFor('über-日本'),
    });
    expect(first.status).toBe(200);
    expect(decodeChatIdHeader(first.headers.get(CHAT_ID_HEADER)!)).toBe('über-日本');
    const body = await json(first);
    const second = await post(`${server.url}/v1/responses`, {
      model: 'echo',
      input: 'two',
      previous_response_id: body.id,
    });
    expect(second.status).toBe(200);
    expect(second.headers.get(CHAT_ID_HEADER)).toBe(encodeChatIdHeader('über-日本'));
  });

  it('reads a percent-encoded request header and answers the stream route with it encoded', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const res = await post(
      `${server.url}/v1/responses`,
      { model: 'echo', input: 'hi' },
      { [CHAT_ID_HEADER]: encodeChatIdHeader('日本-2') },
    );
    expect(res.status).toBe(200);
    expect(decodeChatIdHeader(res.headers.get(CHAT_ID_HEADER)!)).toBe('日本-2');
    const stream = await post(`${server.url}/agencies/echo/responses/stream`, {
      message: 'hi',
      chatId: 'ストリーム',
    });
    expect(stream.status).toBe(200);
    expect(decodeChatIdHeader(stream.headers.get(CHAT_ID_HEADER)!)).toBe('ストリーム');
    await stream.text();
  });

  it('answers 400 naming the field for a lone surrogate in user and invalid UTF-8 in previous_response_id', async () => {
    const server = await listen({ agencies: [echoAgency()], demo: false });
    const lone = await post(
      `${server.url}/v1/chat/completions`,
      '{"model":"echo","messages":[{"role":"user","content":"hi"}],"user":"a\\udbff"}',
    );
    expect(lone.status).toBe(400);
    expect((await json(lone)).error.message).toMatch(/"user".*lone UTF-16 surrogate/);
    const invalid = `resp_${Buffer.from([0x61, 0xff, 0xfe]).toString('base64url')}.abc123`;
    const res = await post(`${server.url}/v1/responses`, {
      model: 'echo',
      input: 'hi',
      previous_response_id: invalid,
    });
    expect(res.status).toBe(400);
    const error = (await json(res)).error;
    expect(error.path).toBe('previous_response_id');
    expect(error.message).toMatch(/not valid UTF-8/);
    const header = await post(
      `${server.url}/v1/responses`,
      { model: 'echo', input: 'hi' },
      { [CHAT_ID_HEADER]: '%FF' },
    );
    expect(header.status).toBe(400);
    expect((await json(header)).error.path).toBe('x-colloquy-chat-id header');
  });

  it(
    'never answers 500 for a user id of any script (property, real listener)',
    async () => {
      const server = await listen({ agencies: [echoAgency()], demo: false });
      await checkProperty(
        'chat id of any script',
        fc.string({
          unit: fc.constantFrom('a', '-', 'ü', '日', '😀', '%', ' ', '\udbff'),
          minLength: 1,
          maxLength: 12,
        }),
        async (user) => {
          const res = await post(`${server.url}/v1/chat/completions`, chat(user));
          const body = await res.text();
          expect([200, 400], body).toContain(res.status);
          if (res.status === 200 && user.trim() === user)
            expect(decodeChatIdHeader(res.headers.get(CHAT_ID_HEADER)!)).toBe(user);
        },
        40,
      );
    },
    fuzzTimeout(40, 200),
  );
});
