import { chatToolResultIds, openaiChatProtocol } from './wireServers/openaiChat.js';
import { runProviderWireTests } from './wireServers/providerCases.js';

runProviderWireTests({
  name: 'openai-compatible',
  protocol: openaiChatProtocol,
  profile: (baseUrl) => ({
    provider: 'openai-compatible',
    model: 'local-test',
    base_url: baseUrl,
    api_key_env: 'LOCAL_KEY',
  }),
  env: { LOCAL_KEY: 'local-secret-value' },
  toolResultIds: chatToolResultIds,
});
