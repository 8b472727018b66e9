/**
 * `colloquy/testing`: deterministic offline models and helpers for your own tests, and the store
 * conformance suite for your own `ThreadStore` ({@link runStoreConformance}; needs vitest, an
 * optional peer dependency).
 * @module
 */
export { ScriptedModel, ScriptError } from './models/scriptedModel.js';
export type {
  ScriptedCall,
  ScriptedModelOptions,
  ScriptedResponder,
  ScriptedStep,
  ScriptedToolCall,
  ScriptedUsage,
} from './models/scriptedModel.js';
export { lastItem, lastUserText, toolOutputsSinceUser } from './models/requestText.js';
export { MemoryStore } from './stores/memory.js';
export { ReplayModel } from './models/replayModel.js';
export { RecordingModel } from './models/recordingModel.js';
export { InMemoryTracingProcessor } from './tracing/sdkProcessors.js';
export { parseCitations } from './files/searchTool.js';
export { runStoreConformance } from './testing/storeConformance.js';
export type { StoreConformanceOptions } from './testing/storeConformance.js';
export { runTraceStoreConformance, storedTrace } from './testing/traceStoreConformance.js';
export type {
  TraceFixture,
  TraceStoreConformanceOptions,
} from './testing/traceStoreConformance.js';
export { appendAll, expectCode, ids, item, items } from './testing/conformance/helpers.js';
export type { StoreHandle } from './testing/conformance/helpers.js';
export { HashedEmbedder } from './memory/hashedEmbedder.js';
export type { HashedEmbedderOptions } from './memory/hashedEmbedder.js';
export { evalMatchers, installEvalMatchers } from './testing/evalMatchers.js';
export type { DelegationSubject, ScoreSubject } from './testing/evalMatchers.js';
