/**
 * Colloquy's bundled primitives, under llm-orc's names and with llm-orc's contracts (same
 * parameters, same output fields), written in TypeScript and run in-process.
 * @module
 */
import { confirmAction } from './confirmAction.js';
import { getUserInput } from './getUserInput.js';
import { jsonExtract } from './jsonExtract.js';
import { readFile } from './readFile.js';
import { replicateNTimes } from './replicateNTimes.js';
import type { Primitive } from './types.js';
import { writeFile } from './writeFile.js';

/** The primitives by llm-orc name. */
export const PRIMITIVES: Readonly<Record<string, Primitive>> = {
  read_file: readFile,
  write_file: writeFile,
  json_extract: jsonExtract,
  replicate_n_times: replicateNTimes,
  get_user_input: getUserInput,
  confirm_action: confirmAction,
};

export { INTERACTIVE_PRIMITIVES, primitiveNameOf } from './names.js';
