/**
 * Records test/fixtures/cassettes/demo.openai-compatible.cassette.json: the two-agent demo run
 * against the loopback OpenAI-compatible wire server, through the real `openai-compatible`
 * provider, with recording on. Run: `npx tsx scripts/recordDemoCassette.ts`.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createLogger } from '../src/logger.js';
import { createProfileRegistry } from '../src/models/profiles.js';
import { createModel, profileModelSettings } from '../src/models/resolve.js';
import { runDemoFlow } from '../test/models/demoFlow.js';
import { demoResponder } from '../test/models/wireServers/demoResponder.js';
import { openaiChatProtocol } from '../test/models/wireServers/openaiChat.js';
import { startWireServer } from '../test/models/wireServers/wireServer.js';

const cassette = path.resolve('test/fixtures/cassettes/demo.openai-compatible.cassette.json');
const server = await startWireServer(openaiChatProtocol, demoResponder);
try {
  await rm(cassette, { force: true });
  const registry = createProfileRegistry([
    {
      source: 'script',
      baseDir: process.cwd(),
      profiles: {
        local: { provider: 'openai-compatible', model: 'fake-gpt', base_url: server.baseUrl },
      },
    },
  ]);
  const options = { env: {}, record: cassette, logger: createLogger({ level: 'warn' }) };
  const output = await runDemoFlow(
    {
      coordinator: createModel('local', registry, options),
      writer: createModel('local', registry, options),
      settings: profileModelSettings('local', registry),
    },
    'the harbour at dawn',
  );
  console.log(output);
  console.log(`recorded ${server.requests.length} requests into ${cassette}`);
} finally {
  await server.close();
}
