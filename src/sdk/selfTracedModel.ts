/**
 * Whether a model opens its own `generation`/`response` span. The SDK's OpenAI models and the AI
 * SDK adapter do; a wrapper that opened another would count every call twice. The AI SDK adapter
 * is an optional peer that is not imported up front, so the classes are recognised by name; the
 * names are listed here only, and `test/sdk/selfTracedModel.test.ts` fails if a listed SDK class
 * is renamed or stops tracing itself.
 * @module
 */
import type { Model } from '@openai/agents-core';

/** Model classes of the SDK packages that trace their own calls. */
export const SELF_TRACED_MODEL_CLASSES: readonly string[] = [
  'OpenAIResponsesModel',
  'OpenAIResponsesWSModel',
  'OpenAIChatCompletionsModel',
  'AiSdkModel',
];

/** True when `model` is one of the SDK's models that open their own generation spans. */
export function opensOwnGenerationSpans(model: Model): boolean {
  let proto: unknown = Object.getPrototypeOf(model);
  while (proto && proto !== Object.prototype) {
    const name = (proto as { constructor?: { name?: string } }).constructor?.name;
    if (name && SELF_TRACED_MODEL_CLASSES.includes(name)) return true;
    proto = Object.getPrototypeOf(proto);
  }
  return false;
}
