export { providerAnthropicPlugin } from './plugin.js';
export { anthropicProviderFactory, type AnthropicFactorySettings } from './anthropic-factory.js';
export { AnthropicErrorCode, PLUGIN_NAME } from './errors.js';
export { ANTHROPIC_MODELS, DEFAULT_MODEL } from './models.js';
