import type { BankDetails } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';

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

/** The operators' bank account fields (migration 0020: one row, none until first saved). */
export type StoredBankDetails = Omit<BankDetails, 'configured'>;

/** The row operators saved, locked when `lock` (their change), or null when never saved. */
export async function storedBankDetails(q: Queryable, lock = false): Promise<StoredBankDetails | null> {
  const [row] = await q.query<StoredBankDetails>(
    `SELECT bank_name, account_name, account_number, swift, bank_address, remark
       FROM platform_bank_details ${lock ? 'FOR UPDATE' : ''}`,
  );
  return row ?? null;
}

/**
 * Where bank deposits go now: what operators saved in the console, else BANK_DETAILS (the
 * environment stays the first default). Read on each request: a change shows at once everywhere.
 */
export async function currentBankDetails(q: Queryable, fallback: BankDetails): Promise<BankDetails> {
  const row = await storedBankDetails(q);
  return row ? { ...row, configured: true } : fallback;
}

export async function saveBankDetails(q: Queryable, d: StoredBankDetails): Promise<void> {
  await q.query(
    `INSERT INTO platform_bank_details (id, bank_name, account_name, account_number, swift, bank_address, remark)
     VALUES (true, $1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET bank_name = $1, account_name = $2, account_number = $3, swift = $4,
       bank_address = $5, remark = $6, updated_at = now()`,
    [d.bank_name, d.account_name, d.account_number, d.swift, d.bank_address, d.remark],
  );
}
