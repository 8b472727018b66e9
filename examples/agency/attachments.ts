/**
 * Sending an image and a PDF with a message. The scripted model checks what reached it: the
 * image as an `input_image` data URL and the PDF as an `input_file` with its file name, exactly
 * the parts the OpenAI Responses and Chat Completions adapters turn into provider requests.
 * The thread keeps the files only by reference, so the second question does not resend them.
 * Runs offline; swap `model` for a vision model name (e.g. 'gpt-4.1-mini') to use a real one.
 *
 *   npx tsx examples/agency/attachments.ts
 */
import { fileURLToPath } from 'node:url';
import type { ModelRequest } from '@openai/agents-core';
import { Agency, Agent, MemoryStore, ThreadManager } from '../../src/index.js';
import { ScriptedModel } from '../../src/models.js';

const file = (name: string) => fileURLToPath(new URL(`./files/${name}`, import.meta.url));

/** The content parts of the newest user message the model was given. */
function lastUserParts(request: ModelRequest): Array<{ type: string; [key: string]: unknown }> {
  const input = Array.isArray(request.input) ? request.input : [];
  const user = input.filter((item) => 'role' in item && item.role === 'user').at(-1);
  const content = user && 'content' in user ? user.content : '';
  return typeof content === 'string' ? [{ type: 'input_text', text: content }] : (content as never);
}

const analyst = new Agent({
  name: 'Analyst',
  instructions: 'Describe the attached files.',
  model: new ScriptedModel(
    (request) => {
      const parts = lastUserParts(request);
      const image = parts.find((p) => p.type === 'input_image');
      const pdf = parts.find((p) => p.type === 'input_file');
      if (!image && !pdf) return 'No files this time; I remember them from the first message.';
      const imageOk = String(image?.image).startsWith('data:image/png;base64,');
      const pdfOk =
        String(pdf?.file).startsWith('data:application/pdf;base64,') &&
        pdf?.filename === 'tides.pdf';
      if (!imageOk || !pdfOk)
        throw new Error(`the model did not get both files: ${JSON.stringify(parts).slice(0, 300)}`);
      return 'I received chart.png (an image) and tides.pdf (a PDF).';
    },
    { repeatLast: true },
  ),
});

const agency = new Agency({
  entryPoints: [analyst],
  threads: new ThreadManager({ store: new MemoryStore() }),
});
const first = await agency.getResponse('What do these show?', {
  attachments: [file('chart.png'), file('tides.pdf')],
});
console.log(first.finalOutput);
const second = await agency.getResponse('And in one sentence?');
console.log(second.finalOutput);
const stored = await agency.threads.store.readItems(`${agency.chatId}__Analyst__USER`);
console.log(`Stored first message: ${JSON.stringify(stored[0]!.item).slice(0, 400)}`);
