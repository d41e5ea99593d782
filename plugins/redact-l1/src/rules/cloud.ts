import { isPlaceholder } from '../allow-list.js';
import { Priority, type Rule, type Scan } from '../candidate.js';
import { endsToken, startsToken, stickyAt } from '../chars.js';
import { entropy } from '../entropy.js';
import { tokenRule, tokenRules } from './token-rule.js';

const AWS_KEY_ID = /(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}/y;
/** A secret access key right after its key id, as in the CSV the AWS console hands out. */
const AWS_PAIRED_SECRET = /[ \t]*[,:;|\t][ \t]*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/dy;

/** True when a 40-character base64 string is random enough to be an AWS secret access key. */
export function awsSecretShape(value: string): boolean {
  return /^[A-Za-z0-9/+]{40}$/.test(value) && /[0-9/+]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value) && entropy(value) >= 4;
}

function awsKeyId(scan: Scan, start: number): void {
  const match = stickyAt(AWS_KEY_ID, scan.text, start);
  if (!match || !startsToken(scan.text, start) || !endsToken(scan.text, start + 20)) return;
  if (!isPlaceholder(match[0])) scan.add({ class: 'aws-access-key', start, end: start + 20, priority: Priority.vendor });
  const paired = stickyAt(AWS_PAIRED_SECRET, scan.text, start + 20);
  const [from, to] = paired?.indices?.[1] ?? [0, 0];
  const secret = scan.text.slice(from, to);
  if (paired && awsSecretShape(secret) && !isPlaceholder(secret)) {
    scan.add({ class: 'aws-secret-key', start: from, end: to, priority: Priority.structural });
  }
}

const SAS_SIGNATURE = /sig=([A-Za-z0-9%+/]{20,}(?:%3[Dd]|=){0,2})/dy;
/** Other parameters every Azure shared access signature carries. */
const SAS_CONTEXT = /[?&;]sv=\d{4}-\d{2}-\d{2}|[?&;]se=\d{4}-/;

/** `sig=` of an Azure SAS URL or connection string: the signature is the credential. */
function azureSas(scan: Scan, start: number): void {
  const before = scan.text.charCodeAt(start - 1);
  if (before !== 63 && before !== 38 && before !== 59) return; // ? & ;
  const match = stickyAt(SAS_SIGNATURE, scan.text, start);
  if (!match || !endsToken(scan.text, start + match[0].length)) return;
  if (!SAS_CONTEXT.test(scan.text.slice(Math.max(0, start - 600), start + match[0].length + 200))) return;
  const [from, to] = match.indices![1]!;
  if (!isPlaceholder(scan.text.slice(from, to))) scan.add({ class: 'azure-sas', start: from, end: to, priority: Priority.vendor });
}

/** Cloud providers: AWS, Google Cloud, Azure, DigitalOcean, HashiCorp Vault, Databricks. */
export const cloudRules: Rule[] = [
  { anchors: ['AKIA', 'ASIA', 'ABIA', 'ACCA'], handle: awsKeyId },
  { anchors: ['sig='], handle: azureSas },
  tokenRule({ class: 'azure-storage-key', keywords: ['accountkey=', 'sharedaccesskey='], pattern: /(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,100}={0,2})/diy }),
  ...tokenRules([
    { class: 'gcp-api-key', anchors: ['AIza'], pattern: /AIza[0-9A-Za-z_-]{35}/y },
    { class: 'google-oauth-secret', anchors: ['GOCSPX-'], pattern: /GOCSPX-[A-Za-z0-9_-]{28}/y },
    { class: 'digitalocean-token', anchors: ['dop_v1_', 'doo_v1_', 'dor_v1_'], pattern: /do[opr]_v1_[a-f0-9]{64}/y },
    { class: 'vault-token', anchors: ['hvs.', 'hvb.'], pattern: /hv[sb]\.[A-Za-z0-9_-]{24,}/y },
    { class: 'databricks-token', anchors: ['dapi'], pattern: /dapi[a-f0-9]{32}(?:-\d)?/y },
  ]),
];
