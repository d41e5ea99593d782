export { providerOpenAiPlugin } from './plugin.js';
export { OpenAiErrorCode, PLUGIN_NAME } from './errors.js';
export { DEFAULT_OPENAI_MODEL, OPENAI_MODELS } from './models.js';
export { OPENAI_BASE_URL, openAiCompatibleFactory, openAiFactory, type FactoryHost } from './openai-factories.js';
