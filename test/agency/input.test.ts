/**
 * Rich input: SDK input items and attachments reach the model inline, the thread keeps inline
 * bytes only by reference, and the references survive export/import.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ModelRequest } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { AttachmentError, mediaTypeOf, prepareInput, storedForm } from '../../src/agency/input.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

const PDF = fileURLToPath(new URL('../fixtures/files/hello.pdf', import.meta.url));
const PNG = fileURLToPath(new URL('../fixtures/files/pixel.png', import.meta.url));

type Part = { type: string; [key: string]: unknown };
function userParts(request: ModelRequest): Part[][] {
  const input = Array.isArray(request.input) ? request.input : [];
  return input
    .filter((item) => 'role' in item && item.role === 'user')
    .map((item) => {
      const content = (item as { content: unknown }).content;
      return typeof content === 'string'
        ? [{ type: 'input_text', text: content }]
        : (content as Part[]);
    });
}

function recordingAgency() {
  const requests: ModelRequest[] = [];
  const model = new ScriptedModel(
    (request) => {
      requests.push(request);
      return 'seen';
    },
    { repeatLast: true },
  );
  const agency = new Agency({
    entryPoints: [new Agent({ name: 'A', instructions: 'a', model })],
    threads: new ThreadManager({ store: new MemoryStore() }),
  });
  return { agency, requests };
}

describe('prepareInput', () => {
  it('keeps a string as one user message and items as they are', async () => {
    expect((await prepareInput('hi')).model).toEqual([{ role: 'user', content: 'hi' }]);
    const items = [
      { role: 'user' as const, content: [{ type: 'input_text' as const, text: 'look' }] },
    ];
    const prepared = await prepareInput(items);
    expect(prepared.model).toEqual(items);
    expect(prepared.text).toBe('look');
  });

  it('turns local files into an image and a PDF data part, by extension', async () => {
    const { model } = await prepareInput('read these', [PNG, { path: PDF }]);
    const [message] = model as Array<{ content: Part[] }>;
    expect(message!.content.map((p) => p.type)).toEqual([
      'input_text',
      'input_image',
      'input_file',
    ]);
    expect(message!.content[1]!.image).toBe(
      `data:image/png;base64,${readFileSync(PNG).toString('base64')}`,
    );
    expect(message!.content[2]).toMatchObject({ filename: 'hello.pdf' });
    expect(String(message!.content[2]!.file)).toMatch(/^data:application\/pdf;base64,JVBER/);
  });

  it('passes uploaded file ids by id', async () => {
    const { model, stored } = await prepareInput('x', [
      'file-abc123',
      { fileId: 'file-img', kind: 'image' },
    ]);
    const parts = (model[0] as { content: Part[] }).content;
    expect(parts.slice(1)).toEqual([
      { type: 'input_file', file: { id: 'file-abc123' } },
      { type: 'input_image', image: { id: 'file-img' } },
    ]);
    expect(stored).toEqual(model);
  });

  it('refuses files over the size limit and unreadable paths, naming them', async () => {
    await expect(prepareInput('x', [PDF], 10)).rejects.toThrow(
      /hello\.pdf" is \d+ bytes, over the limit of 10/,
    );
    await expect(prepareInput('x', ['/no/such/file.png'])).rejects.toBeInstanceOf(AttachmentError);
    await expect(prepareInput(42 as never)).rejects.toThrow(/string or an array/);
  });

  it('stores inline bytes as a one-line reference', async () => {
    const { model } = await prepareInput('x', [PDF]);
    const stored = storedForm(model[0]!) as { content: Part[] };
    expect(stored.content[1]).toEqual({
      type: 'input_text',
      text: expect.stringMatching(
        /^\[attachment: hello\.pdf \(application\/pdf, 596 bytes, sha256:[0-9a-f]{16}\) sent earlier\]$/,
      ),
    });
    expect(mediaTypeOf('a.JPG')).toBe('image/jpeg');
    expect(mediaTypeOf('a.bin')).toBe('application/octet-stream');
  });
});

describe('Agency with rich input', () => {
  it('sends an items array as items, not as text', async () => {
    const { agency, requests } = recordingAgency();
    await agency.getResponse([
      { role: 'user', content: [{ type: 'input_text', text: 'part one' }] },
    ]);
    expect(userParts(requests[0]!)).toEqual([[{ type: 'input_text', text: 'part one' }]]);
  });

  it('gives the model the bytes once; later turns and the stored thread get the reference', async () => {
    const { agency, requests } = recordingAgency();
    await agency.getResponse('what is in these?', { attachments: [PNG, PDF] });
    await agency.getResponse('and now?');
    const firstTurn = userParts(requests[0]!)[0]!;
    expect(firstTurn.map((p) => p.type)).toEqual(['input_text', 'input_image', 'input_file']);
    const later = JSON.stringify(requests[1]!.input);
    expect(later).not.toContain('base64');
    expect(later).toContain('[attachment: hello.pdf');
    expect(later).toContain('[attachment: pixel.png');
    const stored = await agency.threads.store.readItems(`${agency.chatId}__A__USER`);
    expect(JSON.stringify(stored)).not.toContain('base64');

    const envelope = await agency.exportChat(agency.chatId);
    const other = recordingAgency();
    const imported = await other.agency.importChat(envelope, { as: 'copy' });
    const copy = await other.agency.threads.store.readItems(`${imported}__A__USER`);
    expect(JSON.stringify(copy)).toContain('[attachment: hello.pdf');
  });
});
