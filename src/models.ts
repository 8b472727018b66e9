/**
 * `colloquy/models`: model profiles and providers, fallback and retry, prices, recorded and
 * replayed calls (cassettes), attempt listeners, and the project config (`colloquy.yaml`) that
 * names profiles.
 * @module
 */
export { useOpenAIByDefault } from './models/openaiDefault.js';
export { KNOWN_MODEL_PRICES, modelPrice, setModelPrice } from './models/pricing.js';
export type { ModelPrice } from './models/pricing.js';
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
export { modelProfileSchema, PROVIDERS } from './models/profile.js';
export type { ModelProfile, ProviderName } from './models/profile.js';
export { createProfileRegistry, defaultUserProfilesPath, loadProfiles } from './models/profiles.js';
export type {
  LoadProfilesOptions,
  ProfileMap,
  ProfileRegistry,
  ProfileSource,
  ProjectProfiles,
} from './models/profiles.js';
export { createModel, profileModelSettings, ProfileModelProvider } from './models/resolve.js';
export type { CreateModelOptions } from './models/resolve.js';
export { checkProfileKeys } from './models/apiKeys.js';
export { FallbackModel } from './models/fallbackModel.js';
export type { FallbackMember, FallbackModelOptions } from './models/fallbackModel.js';
export { colloquyRetryPolicy, retrySettings } from './models/retry.js';
export type { ColloquyRetryPolicyOptions, RetrySettingsOptions } from './models/retry.js';
export { withAttemptListener } from './models/attempts.js';
export type {
  AttemptReporterOptions,
  ModelAttempt,
  ModelAttemptListener,
} from './models/attempts.js';
export { ReplayModel } from './models/replayModel.js';
export type { ReplayModelOptions } from './models/replayModel.js';
export { RecordingModel } from './models/recordingModel.js';
export type { RecordingModelOptions } from './models/recordingModel.js';
export { Cassette, CASSETTE_FORMAT, CASSETTE_VERSION } from './models/cassette.js';
export type { CassetteInteraction, CassetteOptions, RecordedResponse } from './models/cassette.js';
export type { NormalizedItem, NormalizedRequest } from './models/requestKey.js';
export { TracedModel, tracedModel } from './models/tracedModel.js';
export {
  loadProjectConfig,
  PROJECT_CONFIG_FILE,
  projectConfigSchema,
} from './models/projectConfig.js';
export type { LoadProjectConfigOptions, ProjectConfig } from './models/projectConfig.js';
