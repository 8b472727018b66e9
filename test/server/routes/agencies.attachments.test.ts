/** Attachments over HTTP: JSON with base64 or file ids, multipart uploads, and the size limits. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../../src/agency/agency.js';
import { json, listen, post } from '../helpers.js';
import { countingAgency } from './openaiClients.helpers.js';

const PDF = readFileSync(fileURLToPath(new URL('../../fixtures/files/hello.pdf', import.meta.url)));

function lastUserContent(requests: ReturnType<typeof countingAgency>['requests']) {
  const input = requests.at(-1)!.input as Array<{ role?: string; content?: unknown }>;
  return input.filter((item) => item.role === 'user').at(-1)!.content;
}

describe('POST /agencies/:name/responses with attachments', () => {
  it('accepts base64 data and file ids in JSON', async () => {
    const { agency, requests } = countingAgency();
    const server = await listen({ agencies: [agency] });
    const response = await post(`${server.url}/agencies/counter/responses`, {
      message: 'read it',
      attachments: [
        { data: PDF.toString('base64'), mediaType: 'application/pdf', filename: 'tides.pdf' },
        { fileId: 'file-xyz', kind: 'image' },
      ],
    });
    expect(response.status).toBe(200);
    expect((await json(response)).finalOutput).toBe('reply to read it (#1)');
    expect(lastUserContent(requests)).toEqual([
      { type: 'input_text', text: 'read it' },
      {
        type: 'input_file',
        file: `data:application/pdf;base64,${PDF.toString('base64')}`,
        filename: 'tides.pdf',
      },
      { type: 'input_image', image: { id: 'file-xyz' } },
    ]);
  });

  it('accepts a message of input items', async () => {
    const { agency, requests } = countingAgency();
    const server = await listen({ agencies: [agency] });
    const response = await post(`${server.url}/agencies/counter/responses`, {
      message: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'see' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
          ],
        },
      ],
    });
    expect(response.status).toBe(200);
    expect(lastUserContent(requests)).toEqual([
      { type: 'input_text', text: 'see' },
      { type: 'input_image', image: 'data:image/png;base64,iVBORw0KGgo=' },
    ]);
  });

  it('accepts multipart uploads', async () => {
    const { agency, requests } = countingAgency();
    const server = await listen({ agencies: [agency] });
    const form = new FormData();
    form.set('message', 'uploaded');
    form.set('chatId', 'multi');
    form.append('files', new Blob([PDF], { type: 'application/pdf' }), 'report.pdf');
    const response = await fetch(`${server.url}/agencies/counter/responses`, {
      method: 'POST',
      body: form,
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      chatId: 'multi',
      finalOutput: 'reply to uploaded (#1)',
    });
    const content = lastUserContent(requests) as Array<{ type: string; filename?: string }>;
    expect(content.map((p) => p.type)).toEqual(['input_text', 'input_file']);
    expect(content[1]!.filename).toBe('report.pdf');
  });

  it('refuses bodies over the server limit and files over the agency limit', async () => {
    const { agency } = countingAgency();
    const server = await listen({ agencies: [agency] }, { maxBodyBytes: 1000 });
    const big = await post(`${server.url}/agencies/counter/responses`, {
      message: 'x',
      attachments: [{ data: 'A'.repeat(2000), mediaType: 'text/plain' }],
    });
    expect(big.status).toBe(413);
    const small = countingAgency('small');
    const limited = new Agency({
      name: 'limited',
      entryPoints: [...small.agency.agents.values()],
      maxAttachmentBytes: 10,
      threads: small.agency.threads,
    });
    const server2 = await listen({ agencies: [limited] });
    const tooBig = await post(`${server2.url}/agencies/limited/responses`, {
      message: 'x',
      attachments: [
        { data: PDF.toString('base64'), mediaType: 'application/pdf', filename: 'r.pdf' },
      ],
    });
    expect(tooBig.status).toBe(400);
    expect((await json(tooBig)).error).toMatchObject({ code: 'ATTACHMENT_INVALID' });
  });
});
