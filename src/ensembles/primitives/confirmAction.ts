/**
 * `confirm_action`: asks `parameters.prompt` (default `Continue?`) as a yes/no question; an empty
 * answer takes `parameters.default` (default `n`). `y`, `yes`, `true` and `1` confirm. Prints
 * `{ success, confirmed, input, prompt, error }`.
 * @module
 */
import type { Primitive } from './types.js';
import { primitiveParameters, stringParameter } from './types.js';

const YES = new Set(['y', 'yes', 'true', '1']);

/** The `confirm_action` primitive. */
export const confirmAction: Primitive = async (request) => {
  const parameters = primitiveParameters(request);
  const prompt = stringParameter(parameters, 'prompt', 'Continue?');
  const fallback = stringParameter(parameters, 'default', 'n').toLowerCase();
  let answer: string;
  if (request.ask) {
    try {
      answer = await request.ask(`${prompt} ${fallback === 'y' ? '[Y/n]' : '[y/N]'}`);
    } catch (error) {
      return {
        success: false,
        confirmed: false,
        input: '',
        prompt,
        error: (error as Error).message,
      };
    }
  } else {
    // No handler: a pre-collected answer, else an empty one (llm-orc at the end of input).
    answer = typeof parameters.pre_collected === 'string' ? parameters.pre_collected : '';
  }
  const input = answer.trim().toLowerCase() || fallback;
  return { success: true, confirmed: YES.has(input), input, prompt, error: null };
};
