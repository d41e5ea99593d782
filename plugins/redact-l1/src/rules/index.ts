import type { Rule } from '../candidate.js';
import { aiRules } from './ai.js';
import { authHeaderRules } from './auth-headers.js';
import { cloudRules } from './cloud.js';
import { keyRules } from './keys.js';
import { keywordRules } from './keywords.js';
import { kubernetesRules } from './kubernetes.js';
import { saasRules } from './saas.js';
import { urlRules } from './urls.js';
import { vcsRules } from './vcs.js';

/** Every rule of the L1 layer, by family. */
export const RULES: readonly Rule[] = [
  ...cloudRules,
  ...vcsRules,
  ...saasRules,
  ...aiRules,
  ...keyRules,
  ...urlRules,
  ...authHeaderRules,
  ...kubernetesRules,
  ...keywordRules,
];
