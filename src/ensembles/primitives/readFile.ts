/**
 * `read_file`: reads `parameters.path` (default `input.txt`) as text.
 * Prints `{ success, content, path, size, error }` (`size` in characters).
 * @module
 */
import { readFile as read } from 'node:fs/promises';
import path from 'node:path';
import type { Primitive } from './types.js';
import { primitiveParameters, stringParameter } from './types.js';

/** The `read_file` primitive. */
export const readFile: Primitive = async (request) => {
  const parameters = primitiveParameters(request);
  const file = stringParameter(parameters, 'path', 'input.txt');
  const encoding = stringParameter(parameters, 'encoding', 'utf-8') as BufferEncoding;
  try {
    const content = await read(path.resolve(request.cwd, file), { encoding });
    return { success: true, content, path: file, size: [...content].length, error: null };
  } catch (error) {
    return { success: false, content: null, path: file, size: 0, error: (error as Error).message };
  }
};
