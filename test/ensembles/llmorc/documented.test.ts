import { describe, expect, it } from 'vitest';
import { checkDocumentedOutputs } from '../../../src/ensembles/llmorc/documented.js';

const validation = {
  structural: { required_agents: ['w', 'r'] },
  schema: [
    { agent: 'w', required_fields: ['success', 'path'] },
    { agent: 'r', required_fields: ['content'] },
  ],
  behavioral: [{ name: 'x', assertion: "results['w']['success'] == True" }],
};

describe('checkDocumentedOutputs', () => {
  it('passes when every required agent succeeded with every required field', () => {
    const check = checkDocumentedOutputs(validation, {
      w: { status: 'success', output: { success: true, path: 'p' } },
      r: { status: 'success', output: { content: 'c' } },
    });
    expect(check).toEqual({
      documented: true,
      passed: [
        'required agent w: success',
        'required agent r: success',
        'w has success, path',
        'r has content',
      ],
      failed: [],
      skippedAssertions: 1,
    });
  });

  it('lists missing agents and fields', () => {
    const check = checkDocumentedOutputs(validation, {
      w: { status: 'failed', output: { success: false } },
    });
    expect(check.failed).toEqual([
      'required agent w: failed',
      'required agent r: did not run',
      'w lacks path',
      'r lacks content',
    ]);
  });

  it('an ensemble without validation documents nothing', () => {
    expect(checkDocumentedOutputs(undefined, {}).documented).toBe(false);
    expect(checkDocumentedOutputs({ schema: 'nope' }, {}).documented).toBe(false);
  });
});
