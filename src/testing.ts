/**
 * `colloquy/testing`: deterministic offline models and helpers for your own tests.
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
export { InMemoryTracingProcessor } from './models/tracing.js';
export { parseCitations } from './files/searchTool.js';
