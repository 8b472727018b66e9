import { chatToolResultIds, openaiChatProtocol } from './wireServers/openaiChat.js';
import { runProviderWireTests } from './wireServers/providerCases.js';

runProviderWireTests({
  name: 'openai (Chat Completions, api: chat)',
  protocol: openaiChatProtocol,
  profile: (baseUrl) => ({ provider: 'openai', api: 'chat', model: 'gpt-test', base_url: baseUrl }),
  env: { OPENAI_API_KEY: 'sk-test-chat-00000000000000000000' },
  toolResultIds: chatToolResultIds,
});
