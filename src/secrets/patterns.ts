/**
 * Secret formats: provider keys with a recognisable shape, private keys, JWTs,
 * and high-entropy values assigned to key-like names. Order matters: the more
 * specific format (Anthropic's sk-ant-) comes before the general one (sk-).
 */
export interface SecretPattern {
  /** Short id, used in placeholders: [REDACTED:<id>]. */
  id: string;
  /** What a person calls it. */
  label: string;
  regex: RegExp;
  /** Capture group holding the secret (default: the whole match). */
  group?: number;
  /** Minimum Shannon entropy (bits per character) of the secret. */
  minEntropy?: number;
  /** A match that also matches this is not a secret. */
  unless?: RegExp;
}

/** A file path (`SECRET_FILE=/run/secrets/db_password` names where a secret is, it is not one). */
const PATH_VALUE = /^(?:\/|\.{1,2}\/|~\/)(?:[A-Za-z0-9_.-]+\/)+[A-Za-z0-9_.-]*$/;

export const DEFAULT_SECRET_PATTERNS: SecretPattern[] = [
  {
    id: 'private-key',
    label: 'private key',
    regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { id: 'anthropic-api-key', label: 'Anthropic API key', regex: /\bsk-ant-(?:api|admin|sid)\d{2}-[A-Za-z0-9_-]{20,}/g },
  { id: 'openai-api-key', label: 'OpenAI API key', regex: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g },
  { id: 'aws-access-key-id', label: 'AWS access key id', regex: /\b(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA)[0-9A-Z]{16}\b/g },
  { id: 'github-token', label: 'GitHub token', regex: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b/g },
  { id: 'github-pat', label: 'GitHub fine-grained token', regex: /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g },
  { id: 'gitlab-token', label: 'GitLab token', regex: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { id: 'slack-token', label: 'Slack token', regex: /\bxox[abposre]-[A-Za-z0-9-]{10,}\b/g },
  { id: 'slack-webhook', label: 'Slack webhook', regex: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g },
  { id: 'stripe-key', label: 'Stripe secret key', regex: /\b(?:sk|rk)_live_[A-Za-z0-9]{16,}\b/g },
  { id: 'google-api-key', label: 'Google API key', regex: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { id: 'npm-token', label: 'npm token', regex: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { id: 'huggingface-token', label: 'Hugging Face token', regex: /\bhf_[A-Za-z0-9]{34,}\b/g },
  { id: 'jwt', label: 'JSON Web Token', regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    id: 'assigned-secret',
    label: 'high-entropy value assigned to a key-like name',
    regex:
      /(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|pwd|auth|credential|access[_-]?key|private[_-]?key|client[_-]?secret)[\w.-]*["']?\s*(?:[:=]|=>)\s*["']?([A-Za-z0-9+/_\-.~]{16,})/gi,
    group: 1,
    minEntropy: 3.5,
    unless: PATH_VALUE,
  },
];

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}
