import { chatToolResultIds, openaiChatProtocol } from './wireServers/openaiChat.js';
import { runProviderWireTests } from './wireServers/providerCases.js';

runProviderWireTests({
  name: 'ollama (OpenAI-compatible /v1)',
  protocol: openaiChatProtocol,
  profile: (baseUrl) => ({ provider: 'ollama', model: 'llama3.2', base_url: baseUrl }),
  env: {},
  toolResultIds: chatToolResultIds,
});
