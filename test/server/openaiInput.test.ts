import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/server/errors.js';
import {
  plainText,
  rejectUnsupported,
  responsesUsage,
  toOutputType,
  toUserContent,
  toUserPart,
} from '../../src/server/openaiInput.js';
import { chatIdOfResponse, responseIdFor } from '../../src/server/routes/openaiResponses.js';

describe('client content parts', () => {
  it('become SDK parts, in the Chat Completions and Responses shapes', () => {
    expect(toUserPart({ type: 'text', text: 'a' }, 'p')).toEqual({ type: 'input_text', text: 'a' });
    expect(toUserPart({ type: 'input_text', text: 'b' }, 'p')).toEqual({
      type: 'input_text',
      text: 'b',
    });
    expect(toUserPart({ type: 'image_url', image_url: { url: 'https://x/y.png' } }, 'p')).toEqual({
      type: 'input_image',
      image: 'https://x/y.png',
    });
    expect(toUserPart({ type: 'input_image', file_id: 'file-1' }, 'p')).toEqual({
      type: 'input_image',
      image: { id: 'file-1' },
    });
    expect(
      toUserPart({ type: 'file', file: { file_id: 'file-2', filename: 'a.pdf' } }, 'p'),
    ).toEqual({ type: 'input_file', file: { id: 'file-2' }, filename: 'a.pdf' });
    expect(toUserPart({ type: 'input_file', file_url: 'https://x/a.pdf' }, 'p')).toEqual({
      type: 'input_file',
      file: { url: 'https://x/a.pdf' },
    });
    expect(toUserPart({ type: 'input_file', file_data: 'JVBER', filename: 'r.pdf' }, 'p')).toEqual({
      type: 'input_file',
      file: 'data:application/pdf;base64,JVBER',
      filename: 'r.pdf',
    });
    expect(toUserContent('plain', 'p')).toBe('plain');
  });

  it('are refused with a 400 naming the part when unsupported or malformed', () => {
    const bad = (part: { type: string; [key: string]: unknown }) => {
      try {
        toUserPart(part, 'messages.0.content.1');
      } catch (error) {
        return error as HttpError;
      }
      throw new Error('expected a refusal');
    };
    expect(bad({ type: 'input_audio' })).toMatchObject({
      status: 400,
      path: 'messages.0.content.1',
    });
    expect(bad({ type: 'input_audio' }).message).toMatch(/"input_audio" is not supported/);
    expect(bad({ type: 'text', text: 3 }).message).toMatch(/"text" to be a string/);
    expect(bad({ type: 'image_url' }).message).toMatch(/image_url\.url/);
    expect(bad({ type: 'input_image' }).message).toMatch(/"image_url" or "file_id"/);
    expect(bad({ type: 'input_file' }).message).toMatch(/file_data/);
  });

  it('give their text for transcripts', () => {
    expect(plainText(null)).toBe('');
    expect(plainText('x')).toBe('x');
    expect(
      plainText([{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'text', text: 'b' }]),
    ).toBe('ab');
  });
});

describe('request checks', () => {
  it('refuse client tools and n > 1, and accept empty tools and n = 1', () => {
    expect(() => rejectUnsupported({ tools: [{}] })).toThrow(/"tools" is not supported/);
    expect(() => rejectUnsupported({ n: 3 })).toThrow(/"n" must be 1 \(got 3\)/);
    expect(() => rejectUnsupported({ tools: [], n: 1 })).not.toThrow();
  });

  it('turn a JSON schema format into an output type, or refuse a missing schema', () => {
    expect(toOutputType({ name: 'x', schema: { type: 'object' }, strict: true }, 'f')).toEqual({
      type: 'json_schema',
      name: 'x',
      strict: true,
      schema: { type: 'object' },
    });
    expect(toOutputType({ schema: { type: 'object' } }, 'f')).toMatchObject({
      name: 'response',
      strict: false,
    });
    expect(() => toOutputType({}, 'text.format')).toThrow(/text\.format\.schema/);
  });

  it('map usage to the Responses shape', () => {
    expect(
      responsesUsage({ requests: 1, inputTokens: 3, outputTokens: 4, totalTokens: 7 }),
    ).toMatchObject({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
  });
});

describe('response ids', () => {
  it('carry their chat id, and refuse ids of other servers', () => {
    const id = responseIdFor('chat with spaces/ü');
    expect(id).toMatch(/^resp_[A-Za-z0-9_-]+\.[0-9a-f]{32}$/);
    expect(responseIdFor('c')).not.toBe(responseIdFor('c'));
    expect(chatIdOfResponse(id)).toBe('chat with spaces/ü');
    expect(() => chatIdOfResponse('resp_abc123')).toThrow(/not a response id of this server/);
    expect(() =>
      chatIdOfResponse(`resp_${Buffer.from('\u0001').toString('base64url')}.ab`),
    ).toThrow(HttpError);
  });
});
