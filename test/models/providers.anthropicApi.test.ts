import {
  anthropicMessagesProtocol,
  anthropicToolResultIds,
} from './wireServers/anthropicMessages.js';
import { runProviderWireTests } from './wireServers/providerCases.js';

// llm-orc's provider name for Anthropic goes through the same adapter, over the same wire.
runProviderWireTests({
  name: 'anthropic-api (llm-orc provider name, Messages API)',
  protocol: anthropicMessagesProtocol,
  profile: (baseUrl) => ({ provider: 'anthropic-api', model: 'claude-test', base_url: baseUrl }),
  env: { ANTHROPIC_API_KEY: 'sk-ant-test-000000000000000000' },
  toolResultIds: anthropicToolResultIds,
});
