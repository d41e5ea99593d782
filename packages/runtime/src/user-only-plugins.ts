import type { Config } from './config.js';
import { pluginRoot } from './paths.js';
import { preloadDistribution } from './preload-distribution.js';
import type { UserOnlyPlugins } from './repo-config.js';
import { distributionFor, userConfig, type DistributionSource } from './runtime.js';

/**
 * The plugins of the user's distribution whose config sections only the person may set, for reviewing a
 * repository's config before trusting it (`nodwyn trust`) without booting anything. Loads the user's
 * config and the distribution's plugin modules (their manifests say it), never the workspace's.
 */
export async function userOnlyPlugins(distribution: DistributionSource, env: NodeJS.ProcessEnv = process.env, defaults?: Config): Promise<UserOnlyPlugins> {
  const config = userConfig(defaults, env);
  return (await preloadDistribution(distributionFor(distribution, config, pluginRoot(env)), config.distribution?.disabled ?? [])).userOnly;
}
