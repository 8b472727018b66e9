/**
 * `get_user_input`: asks `parameters.prompt` (default `Enter input:`) and prints
 * `{ success, input, multiline, length, error }`. The answer comes from the run's input handler;
 * without one, `parameters.pre_collected` or an empty answer.
 * @module
 */
import type { Primitive } from './types.js';
import { primitiveParameters, stringParameter } from './types.js';

/** The `get_user_input` primitive. */
export const getUserInput: Primitive = async (request) => {
  const parameters = primitiveParameters(request);
  const prompt = stringParameter(parameters, 'prompt', 'Enter input:');
  const multiline = Boolean(parameters.multiline ?? false);
  let answer: string;
  if (request.ask) {
    try {
      answer = await request.ask(prompt);
    } catch (error) {
      return { success: false, input: '', multiline, length: 0, error: (error as Error).message };
    }
  } else {
    // No handler: a pre-collected answer, else an empty one (llm-orc at the end of input).
    answer = typeof parameters.pre_collected === 'string' ? parameters.pre_collected : '';
  }
  return { success: true, input: answer, multiline, length: [...answer].length, error: null };
};
