import { tokenRules } from './token-rule.js';

/** Source hosts and package registries: GitHub, GitLab, Bitbucket/Atlassian, npm, PyPI. */
export const vcsRules = tokenRules([
  // Classic and fine-grained tokens; GitHub documents room for lengths up to 255.
  { class: 'github-token', anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], pattern: /gh[pousr]_[A-Za-z0-9]{36,251}/y },
  { class: 'github-token', anchors: ['github_pat_'], pattern: /github_pat_[A-Za-z0-9_]{22,255}/y },
  {
    class: 'gitlab-token',
    anchors: ['glpat-', 'gldt-', 'glptt-', 'glrt-', 'glcbt-', 'glsoat-', 'glimt-', 'glft-'],
    // Routable tokens (GitLab 17.x) append `.<version>.<crc>`.
    pattern: /gl(?:pat|dt|ptt|rt|cbt|soat|imt|ft)-[A-Za-z0-9_-]{20,64}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?/y,
  },
  { class: 'gitlab-token', anchors: ['GR1348941'], pattern: /GR1348941[A-Za-z0-9_-]{20}/y },
  { class: 'bitbucket-app-password', anchors: ['ATBB'], pattern: /ATBB[A-Za-z0-9]{32}/y },
  { class: 'atlassian-api-token', anchors: ['ATATT3'], pattern: /ATATT3[A-Za-z0-9_=-]{50,300}/y },
  { class: 'npm-token', anchors: ['npm_'], pattern: /npm_[A-Za-z0-9]{36}/y },
  // A macaroon whose first caveat names pypi.org (or test.pypi.org).
  { class: 'pypi-token', anchors: ['pypi-AgE'], pattern: /pypi-AgE[A-Za-z0-9_-]{50,}/y },
]);
