import {
  anthropicMessagesProtocol,
  anthropicToolResultIds,
} from './wireServers/anthropicMessages.js';
import { runProviderWireTests } from './wireServers/providerCases.js';

runProviderWireTests({
  name: 'anthropic (Messages API)',
  protocol: anthropicMessagesProtocol,
  profile: (baseUrl) => ({ provider: 'anthropic', model: 'claude-test', base_url: baseUrl }),
  env: { ANTHROPIC_API_KEY: 'sk-ant-test-000000000000000000' },
  toolResultIds: anthropicToolResultIds,
});
