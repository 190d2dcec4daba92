import type { BankDetails } from '@verdant/api';

const BANK_FIELDS = ['bank_name', 'account_name', 'account_number', 'swift'] as const;

/**
 * The bank account users send bank deposits to, from BANK_DETAILS (JSON with bank_name,
 * account_name, account_number, swift, and optionally bank_address and remark). Unset: values
 * that say plainly they are placeholders, with `configured: false`. A malformed value stops
 * the server at start, where the operator sees it.
 */
export function parseBankDetails(raw: string | undefined): BankDetails {
  if (!raw) {
    return {
      bank_name: 'Example Bank (placeholder: set BANK_DETAILS)',
      account_name: 'Verdant (placeholder)',
      account_number: '000-0-00000-0',
      swift: 'XXXXXXXX',
      bank_address: '',
      remark: 'Placeholder bank details: the operator has not configured BANK_DETAILS yet',
      configured: false,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('BANK_DETAILS is not valid JSON');
  }
  const o = (parsed ?? {}) as Record<string, unknown>;
  const text = (k: string) => (typeof o[k] === 'string' ? (o[k] as string).trim() : '');
  const missing = BANK_FIELDS.filter((k) => !text(k));
  if (typeof parsed !== 'object' || Array.isArray(parsed) || missing.length > 0) {
    throw new Error(
      `BANK_DETAILS must be a JSON object with non-empty ${BANK_FIELDS.join(', ')} (missing: ${missing.join(', ')})`,
    );
  }
  return {
    bank_name: text('bank_name'),
    account_name: text('account_name'),
    account_number: text('account_number'),
    swift: text('swift'),
    bank_address: text('bank_address'),
    remark: text('remark'),
    configured: true,
  };
}
