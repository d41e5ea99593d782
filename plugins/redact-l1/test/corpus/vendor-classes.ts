import { token, type ClassSpec } from './class-spec.js';
import { ALNUM, b64, b64url, BASE32, BASE64URL, DIGITS, HEX, HEX_UPPER, LETTERS, UPPER_ALNUM, type Rng } from './prng.js';

/** Vendor tokens recognised by their documented prefix, length and alphabet. */
export const VENDOR_CLASSES: readonly ClassSpec[] = [
  token('aws-access-key', ['AWS_ACCESS_KEY_ID', 'aws_access_key_id', 'AccessKeyId'], (r) => r.pick(['AKIA', 'ASIA']) + r.chars(BASE32, 16)),
  token('gcp-api-key', ['GOOGLE_API_KEY', 'firebaseApiKey', 'MAPS_KEY'], (r) => `AIza${r.chars(`${ALNUM}-_`, 35)}`),
  token('google-oauth-secret', ['GOOGLE_CLIENT_SECRET', 'oauth_client_secret'], (r) => `GOCSPX-${r.chars(BASE64URL, 28)}`),
  token('digitalocean-token', ['DIGITALOCEAN_TOKEN', 'DO_PAT'], (r) => `${r.pick(['dop_v1_', 'doo_v1_', 'dor_v1_'])}${r.chars(HEX, 64)}`),
  token('vault-token', ['VAULT_TOKEN', 'vault_token'], (r) => `${r.pick(['hvs.', 'hvb.'])}${r.chars(BASE64URL, r.between(90, 100))}`),
  token('databricks-token', ['DATABRICKS_TOKEN', 'databricks_pat'], (r) => `dapi${r.chars(HEX, 32)}`),
  token('github-token', ['GITHUB_TOKEN', 'GH_TOKEN', 'github_pat'], (r) =>
    r.float() < 0.7 ? `${r.pick(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'])}${r.chars(ALNUM, 36)}` : `github_pat_${r.chars(ALNUM, 22)}_${r.chars(ALNUM, 59)}`,
  ),
  token('gitlab-token', ['GITLAB_TOKEN', 'CI_JOB_TOKEN', 'gitlab_pat'], gitlabToken),
  token('bitbucket-app-password', ['BITBUCKET_APP_PASSWORD', 'bb_app_password'], (r) => `ATBB${r.chars(ALNUM, 24)}${r.chars(HEX_UPPER, 8)}`),
  token('atlassian-api-token', ['JIRA_API_TOKEN', 'ATLASSIAN_TOKEN'], (r) => `ATATT3xFfGF0${r.chars(BASE64URL, 170)}=${r.chars(HEX_UPPER, 8)}`),
  token('npm-token', ['NPM_TOKEN', 'NODE_AUTH_TOKEN'], (r) => `npm_${r.chars(ALNUM, 36)}`),
  token('pypi-token', ['PYPI_TOKEN', 'TWINE_PASSWORD'], (r) => `pypi-AgEIcHlwaS5vcmc${r.chars(BASE64URL, r.between(120, 160))}`),
  token('stripe-key', ['STRIPE_SECRET_KEY', 'stripeKey', 'STRIPE_WEBHOOK_SECRET'], stripeKey),
  token('slack-token', ['SLACK_BOT_TOKEN', 'slack_token', 'SLACK_APP_TOKEN'], slackToken),
  token('sendgrid', ['SENDGRID_API_KEY', 'sendgridKey'], (r) => `SG.${r.chars(BASE64URL, 22)}.${r.chars(BASE64URL, 43)}`),
  token('sentry-token', ['SENTRY_AUTH_TOKEN'], (r) =>
    r.float() < 0.5 ? `sntryu_${r.chars(HEX, 64)}` : `sntrys_${b64url(`{"iat":${r.between(1.6e9, 1.8e9)},"url":"https://sentry.io","org":"acme"}`)}_${r.chars(ALNUM, 43)}`,
  ),
  token('shopify-token', ['SHOPIFY_ACCESS_TOKEN', 'shopify_secret'], (r) => `${r.pick(['shpat_', 'shpss_', 'shpca_', 'shppa_'])}${r.chars(HEX, 32)}`),
  token('linear-api-key', ['LINEAR_API_KEY'], (r) => `lin_api_${r.chars(ALNUM, 40)}`),
  token('postman-api-key', ['POSTMAN_API_KEY'], (r) => `PMAK-${r.chars(HEX, 24)}-${r.chars(HEX, 34)}`),
  token('grafana-token', ['GRAFANA_TOKEN', 'GRAFANA_SA_TOKEN'], (r) =>
    r.float() < 0.5 ? `glsa_${r.chars(ALNUM, 32)}_${r.chars(HEX, 8)}` : `glc_${b64(`{"o":"${r.chars(DIGITS, 6)}","n":"stack-${r.chars(DIGITS, 6)}","k":"${r.chars(ALNUM, 24)}"}`)}`,
  ),
  token('doppler-token', ['DOPPLER_TOKEN'], (r) => (r.float() < 0.5 ? `dp.pt.${r.chars(ALNUM, 43)}` : `dp.st.${r.pick(['prd', 'dev', 'stg'])}.${r.chars(ALNUM, 40)}`)),
  token('openai-key', ['OPENAI_API_KEY', 'openaiKey'], openaiKey),
  token('anthropic-key', ['ANTHROPIC_API_KEY', 'anthropicKey'], (r) => `sk-ant-api03-${r.chars(BASE64URL, 93)}AA`),
  token('huggingface-token', ['HF_TOKEN', 'HUGGINGFACE_HUB_TOKEN'], (r) => `hf_${r.chars(LETTERS, 34)}`),
  token('jwt', ['ACCESS_TOKEN', 'id_token', 'session'], jwtToken),
];

function gitlabToken(r: Rng): string {
  const kind = r.int(4);
  if (kind === 0) return `glpat-${r.chars(BASE64URL, 20)}`;
  if (kind === 1) return `glpat-${r.chars(BASE64URL, 27)}.01.${r.chars('abcdefghijklmnopqrstuvwxyz0123456789', 9)}`;
  if (kind === 2) return `${r.pick(['gldt-', 'glrt-', 'glptt-', 'glcbt-'])}${r.chars(BASE64URL, 20)}`;
  return `GR1348941${r.chars(BASE64URL, 20)}`;
}

function stripeKey(r: Rng): string {
  if (r.float() < 0.2) return `whsec_${r.chars(ALNUM, 32)}`;
  return `${r.pick(['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'])}${r.chars(ALNUM, r.pick([24, 99]))}`;
}

function slackToken(r: Rng): string {
  const kind = r.int(3);
  if (kind === 0) return `xoxb-${r.chars(DIGITS, 12)}-${r.chars(DIGITS, 13)}-${r.chars(ALNUM, 24)}`;
  if (kind === 1) return `xoxp-${r.chars(DIGITS, 12)}-${r.chars(DIGITS, 12)}-${r.chars(DIGITS, 13)}-${r.chars(HEX, 32)}`;
  return `xapp-1-A${r.chars(UPPER_ALNUM, 10)}-${r.chars(DIGITS, 13)}-${r.chars(HEX, 64)}`;
}

function openaiKey(r: Rng): string {
  const kind = r.int(3);
  if (kind === 0) return `sk-${r.chars(ALNUM, 20)}T3BlbkFJ${r.chars(ALNUM, 20)}`;
  const prefix = kind === 1 ? 'sk-proj-' : 'sk-svcacct-';
  return `${prefix}${r.chars(BASE64URL, 74)}T3BlbkFJ${r.chars(BASE64URL, 74)}`;
}

function jwtToken(r: Rng): string {
  const alg = r.pick(['HS256', 'RS256', 'ES256']);
  const header = b64url(JSON.stringify({ alg, typ: 'JWT' }));
  const payload = b64url(JSON.stringify({ sub: r.chars(HEX, 12), iat: r.between(1.6e9, 1.8e9), scope: r.pick(['read', 'admin', 'repo']) }));
  const signature = r.chars(BASE64URL, alg === 'RS256' ? 342 : alg === 'ES256' ? 86 : 43);
  return `${header}.${payload}.${signature}`;
}
