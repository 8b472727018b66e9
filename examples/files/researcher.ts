/**
 * A coordinator asks a researcher, who answers from the product docs in `examples/files/docs/`
 * with a citation (`path:start-end`). The researcher's `filesFolder` gives it a `file_search`
 * tool over a local full-text index. Runs offline on scripted models; swap `model` for a model
 * name (e.g. 'gpt-4.1-mini') to use a real one.
 *
 *   npx tsx examples/files/researcher.ts
 *
 * The index is written to a temp dir, removed at the end, so the example leaves nothing behind;
 * without `indexDir` it would persist in `.colloquy/files/` beside the default store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCitations } from '../../src/files/searchTool.js';
import { Agency, Agent, MemoryStore, ThreadManager } from '../../src/index.js';
import { ScriptedModel, lastUserText, toolOutputsSinceUser } from '../../src/models.js';

const indexDir = mkdtempSync(join(tmpdir(), 'colloquy-files-example-'));

const researcher = new Agent({
  name: 'Researcher',
  description: 'Answers questions about the Lumen Loom from its docs, with citations.',
  instructions: 'Search the files, then answer in one sentence and cite path:start-end.',
  filesFolder: fileURLToPath(new URL('./docs', import.meta.url)),
  fileSearch: { indexDir },
  model: new ScriptedModel((request) => {
    const [listing] = toolOutputsSinceUser(request);
    if (listing === undefined)
      return { tool: 'file_search', args: { query: lastUserText(request) } };
    const [top] = parseCitations(listing);
    if (!top) return 'The docs do not say.';
    return `“${top.excerpt}” (${top.path}:${top.startLine}-${top.endLine})`;
  }),
});

const coordinator = new Agent({
  name: 'Coordinator',
  instructions: 'Ask the Researcher and pass its cited answer on.',
  model: new ScriptedModel((request) => {
    const [answer] = toolOutputsSinceUser(request);
    if (answer === undefined) {
      return {
        tool: 'send_message',
        args: { recipient: 'Researcher', message: 'descale steam bar days' },
      };
    }
    return `According to the docs: ${answer}`;
  }),
});

const agency = new Agency({
  entryPoints: [coordinator],
  communicationFlows: [[coordinator, researcher]],
  threads: new ThreadManager({ store: new MemoryStore() }),
});

const result = await agency.getResponse('How often should I descale the Lumen Loom?');
console.log(result.finalOutput);
rmSync(indexDir, { recursive: true, force: true });
