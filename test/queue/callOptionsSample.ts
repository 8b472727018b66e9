// A value of every serialisable call option, shared by callOptions.test.ts and its Redis half.
import type { CallOptions } from '../../src/agency/callOptions.js';

/** A value of every serialisable option; the first test fails when the schema gains a field. */
export const SAMPLE: Required<CallOptions> = {
  recipient: 'Echo',
  chatId: 'c-options',
  userId: 'u1',
  context: { tenant: 't1' },
  attachments: [{ data: 'aGk=', mediaType: 'text/plain' }],
  outputType: { type: 'json_schema', name: 'r', strict: false, schema: {} as never },
  additionalInstructions: 'be brief',
  maxTurns: 3,
};
