import { openaiResponsesProtocol, responsesToolResultIds } from './wireServers/openaiResponses.js';
import { runProviderWireTests } from './wireServers/providerCases.js';

runProviderWireTests({
  name: 'openai (Responses API)',
  protocol: openaiResponsesProtocol,
  profile: (baseUrl) => ({ provider: 'openai', model: 'gpt-test', base_url: baseUrl }),
  env: { OPENAI_API_KEY: 'sk-test-responses-0000000000000000' },
  toolResultIds: responsesToolResultIds,
});
