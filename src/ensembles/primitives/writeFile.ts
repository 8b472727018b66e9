/**
 * `write_file`: writes `parameters.content` to `parameters.path` (default `output.txt`), creating
 * missing folders. Prints `{ success, path, size, bytes_written, error }`.
 * @module
 */
import { mkdir, writeFile as write } from 'node:fs/promises';
import path from 'node:path';
import type { Primitive } from './types.js';
import { primitiveParameters, stringParameter } from './types.js';

/** The `write_file` primitive. */
export const writeFile: Primitive = async (request) => {
  const parameters = primitiveParameters(request);
  const file = stringParameter(parameters, 'path', 'output.txt');
  const content = stringParameter(parameters, 'content', '');
  const encoding = stringParameter(parameters, 'encoding', 'utf-8') as BufferEncoding;
  try {
    const target = path.resolve(request.cwd, file);
    await mkdir(path.dirname(target), { recursive: true });
    await write(target, content, { encoding });
    return {
      success: true,
      path: file,
      size: [...content].length,
      bytes_written: Buffer.byteLength(content, encoding),
      error: null,
    };
  } catch (error) {
    return {
      success: false,
      path: file,
      size: 0,
      bytes_written: 0,
      error: (error as Error).message,
    };
  }
};
