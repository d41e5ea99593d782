import { tokenRules } from './token-rule.js';

const hasDigit = (token: string) => /\d/.test(token);

/** Payment, chat, mail, monitoring and tooling services. */
export const saasRules = tokenRules([
  { class: 'stripe-key', anchors: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'], pattern: /[sr]k_(?:live|test)_[A-Za-z0-9]{10,247}/y },
  { class: 'stripe-key', anchors: ['whsec_'], pattern: /whsec_[A-Za-z0-9+/=]{32,}/y },
  { class: 'slack-token', anchors: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxo-', 'xoxs-', 'xoxr-'], pattern: /xox[abposr]-[A-Za-z0-9-]{10,250}/y, check: hasDigit },
  { class: 'slack-token', anchors: ['xoxe-', 'xoxe.'], pattern: /xoxe(?:\.xox[bp])?-\d-[A-Za-z0-9-]{10,250}/y },
  { class: 'slack-token', anchors: ['xapp-'], pattern: /xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]{16,}/y },
  // The path is the secret; the host stays readable.
  { class: 'slack-webhook', anchors: ['hooks.slack.com/'], pattern: /hooks\.slack\.com\/((?:services|workflows|triggers)\/[A-Za-z0-9_/+-]{20,})/dy },
  { class: 'discord-webhook', anchors: ['discord.com/api/', 'discordapp.com/api/'], pattern: /discord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/(\d{17,20}\/[A-Za-z0-9_-]{60,68})/dy },
  { class: 'sendgrid', anchors: ['SG.'], pattern: /SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}/y },
  { class: 'sentry-token', anchors: ['sntrys_'], pattern: /sntrys_eyJ[A-Za-z0-9+/=_-]{40,}/y },
  { class: 'sentry-token', anchors: ['sntryu_'], pattern: /sntryu_[a-f0-9]{64}/y },
  { class: 'shopify-token', anchors: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], pattern: /shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/y },
  { class: 'linear-api-key', anchors: ['lin_api_'], pattern: /lin_api_[A-Za-z0-9]{40}/y },
  { class: 'postman-api-key', anchors: ['PMAK-'], pattern: /PMAK-[a-f0-9]{24}-[a-f0-9]{34}/y },
  { class: 'grafana-token', anchors: ['glc_'], pattern: /glc_[A-Za-z0-9+/_-]{32,400}={0,2}/y },
  { class: 'grafana-token', anchors: ['glsa_'], pattern: /glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}/y },
  { class: 'doppler-token', anchors: ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.'], pattern: /dp\.(?:pt|st|sa|ct)\.(?:[a-z0-9_-]{1,32}\.)?[A-Za-z0-9]{40,44}/y },
]);
