/**
 * The `chat.completion.chunk`s of a streamed `/v1/chat/completions` as JSON text. Every chunk of
 * one response shares its id, time and model, so that head is encoded once and each chunk adds
 * its delta: a text delta costs one `JSON.stringify` of its string, not of a whole chunk object.
 * The text is what `JSON.stringify` of the chunk object gives, byte for byte (same keys, same order).
 * @module
 */

/** Encodes the chunks of one streamed chat completion. */
export interface CompletionChunks {
  /** A chunk whose delta is `delta` and whose `finish_reason` is `finish`. */
  chunk(delta: Record<string, unknown>, finish?: string | null): string;
  /** A chunk whose delta is the text `content` (a model's text delta). */
  text(content: string): string;
  /** The first chunk: the assistant's role, with the background run id (a Colloquy field). */
  first(runId: string): string;
}

/** The chunk encoder of the response `id`, created at `created` (seconds), by `model`. */
export function completionChunks(id: string, created: number, model: string): CompletionChunks {
  const head =
    `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${JSON.stringify(created)},` +
    `"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":`;
  const tail = (finish: string | null) =>
    `,"finish_reason":${JSON.stringify(finish)},"logprobs":null}]`;
  return {
    chunk: (delta, finish = null) => `${head}${JSON.stringify(delta)}${tail(finish)}}`,
    text: (content) => `${head}{"content":${JSON.stringify(content)}}${tail(null)}}`,
    first: (runId) =>
      `${head}{"role":"assistant","content":""}${tail(null)},"colloquy_run_id":${JSON.stringify(runId)}}`,
  };
}
