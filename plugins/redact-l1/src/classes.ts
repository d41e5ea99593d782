/**
 * Every class L1 names, as it appears in `[REDACTED <class>]` and in taint tags. Binding rules and the
 * egress layer match on these names, so renaming one is a breaking change.
 */
export const SECRET_CLASSES = [
  'aws-access-key', 'aws-secret-key', 'gcp-api-key', 'gcp-service-account', 'google-oauth-secret', 'azure-storage-key', 'azure-sas',
  'digitalocean-token', 'vault-token', 'databricks-token',
  'github-token', 'gitlab-token', 'bitbucket-app-password', 'atlassian-api-token', 'npm-token', 'pypi-token',
  'stripe-key', 'slack-token', 'slack-webhook', 'discord-webhook', 'twilio', 'sendgrid', 'datadog-key', 'sentry-dsn', 'sentry-token',
  'shopify-token', 'linear-api-key', 'postman-api-key', 'grafana-token', 'doppler-token',
  'openai-key', 'anthropic-key', 'huggingface-token',
  'private-key', 'jwt',
  'url-password', 'connection-string', 'basic-auth', 'kubernetes-secret', 'generic-password', 'generic-secret',
] as const;

/** A class L1 names. */
export type SecretClass = (typeof SECRET_CLASSES)[number];
