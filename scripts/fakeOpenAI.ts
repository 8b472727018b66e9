/**
 * A loopback OpenAI-compatible server (Chat Completions, JSON and SSE) that plays the two-agent
 * demo's scripted answers, for trying Colloquy by hand without a key or a network:
 *
 *   npx tsx scripts/fakeOpenAI.ts --port 8799
 *
 * then point a profile at http://127.0.0.1:8799/v1 (see examples/profiles/colloquy.yaml).
 */
import { demoResponder } from '../test/models/wireServers/demoResponder.js';
import { openaiChatProtocol } from '../test/models/wireServers/openaiChat.js';
import { startWireServer } from '../test/models/wireServers/wireServer.js';

const flag = process.argv.indexOf('--port');
const port = flag >= 0 ? Number(process.argv[flag + 1]) : 8799;
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number (0-65535), got ${process.argv[flag + 1]}.`);
  process.exit(2);
}
const server = await startWireServer(openaiChatProtocol, demoResponder, { port });
console.log(
  `fake OpenAI-compatible server on ${server.baseUrl} (POST /chat/completions); Ctrl-C to stop`,
);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
