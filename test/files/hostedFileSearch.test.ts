import { fileSearchTool } from '@openai/agents-openai';
import { describe, expect, it } from 'vitest';
import { hostedFileSearchTool } from '../../src/files/hostedFileSearch.js';

// Contract: the tool Colloquy builds without loading @openai/agents-openai is the one the SDK
// builds; an SDK release that changes the hosted tool's shape fails here.
describe('hostedFileSearchTool', () => {
  it('matches fileSearchTool of @openai/agents-openai, with and without options', () => {
    expect(hostedFileSearchTool(['vs_1'])).toEqual(fileSearchTool(['vs_1']));
    expect(
      hostedFileSearchTool(['vs_1', 'vs_2'], { name: 'file_search', maxNumResults: 3 }),
    ).toEqual(fileSearchTool(['vs_1', 'vs_2'], { name: 'file_search', maxNumResults: 3 }));
  });

  it('keeps the ids array, so ids filled after the first sync reach the request', () => {
    const ids: string[] = [];
    const tool = hostedFileSearchTool(ids);
    ids.push('vs_later');
    expect((tool.providerData as { vector_store_ids: string[] }).vector_store_ids).toEqual([
      'vs_later',
    ]);
  });
});
