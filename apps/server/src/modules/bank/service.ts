import { BANK_CARDS_MAX, type BankCard, type BankCardBody } from '@verdant/api';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { lockUser } from '../user/service.ts';

/** 4 letters bank, 2 letters country, 2 alphanumerics location, optionally 3 alphanumerics branch. */
const SWIFT_RE = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const CARD_RE = /^\d{8,30}$/;
const POSTAL_RE = /^[\p{L}\p{N} -]{2,20}$/u;
// letters of any script, marks, digits and ordinary punctuation; no control characters or markup
const TEXT_RE = /^[^\p{Cc}<>]*$/u;

/** What is stored: every field trimmed and normalised, the optional ones '' when left out. */
export interface BankCardInput {
  name: string;
  card_number: string;
  bank_name: string;
  branch: string;
  bank_address: string;
  swift: string;
  holder_name: string;
  iban: string;
  beneficiary_address: string;
  postal_code: string;
}

interface BankCardRow extends BankCardInput {
  id: number;
  user_id: number;
  created_at: Date;
  updated_at: Date;
}

export function maskCardNumber(digits: string): string {
  return `**** **** ${digits.slice(-4)}`;
}

function toCard(r: BankCardRow): BankCard {
  return {
    id: r.id,
    name: r.name,
    card_number: r.card_number,
    card_number_masked: maskCardNumber(r.card_number),
    bank_name: r.bank_name,
    branch: r.branch,
    bank_address: r.bank_address,
    swift: r.swift,
    holder_name: r.holder_name,
    iban: r.iban,
    beneficiary_address: r.beneficiary_address,
    postal_code: r.postal_code,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

function text(
  body: BankCardBody,
  field: keyof BankCardInput,
  opts: { required?: string; max: number },
): string {
  const v = (body[field] ?? '').trim().replace(/\s+/g, ' ');
  if (!v) {
    if (opts.required) throw invalid(opts.required, field);
    return '';
  }
  if ([...v].length > opts.max) throw invalid('bank.tooLong', field, { max: opts.max });
  if (!TEXT_RE.test(v)) throw invalid('bank.textInvalid', field);
  return v;
}

/**
 * Checks a card form field by field, in the order of the screen, and answers the normalised
 * values: card number digits only, SWIFT upper case, IBAN in electronic format with a good
 * checksum (ibantools: country length, BBAN format and mod-97).
 */
export function parseBankCard(body: BankCardBody): BankCardInput {
  const name = text(body, 'name', { required: 'bank.nameRequired', max: 100 });
  const rawCard = (body.card_number ?? '').replace(/\s+/g, '');
  if (!rawCard) throw invalid('bank.cardNumberRequired', 'card_number');
  if (!CARD_RE.test(rawCard)) throw invalid('bank.cardNumberInvalid', 'card_number');
  const bank_name = text(body, 'bank_name', { required: 'bank.bankNameRequired', max: 100 });
  const branch = text(body, 'branch', { max: 100 });
  const bank_address = text(body, 'bank_address', { max: 200 });
  const swift = (body.swift ?? '').replace(/\s+/g, '').toUpperCase();
  if (!swift) throw invalid('bank.swiftRequired', 'swift');
  if (!SWIFT_RE.test(swift) || !isValidBIC(swift)) throw invalid('bank.swiftInvalid', 'swift');
  const holder_name = text(body, 'holder_name', { required: 'bank.holderNameRequired', max: 100 });
  let iban = '';
  if ((body.iban ?? '').trim()) {
    iban = electronicFormatIBAN(body.iban) ?? '';
    if (!iban || !isValidIBAN(iban)) throw invalid('bank.ibanInvalid', 'iban');
  }
  const beneficiary_address = text(body, 'beneficiary_address', { max: 200 });
  const postal_code = (body.postal_code ?? '').trim().replace(/\s+/g, ' ');
  if (postal_code && !POSTAL_RE.test(postal_code)) throw invalid('bank.postalCodeInvalid', 'postal_code');
  return {
    name,
    card_number: rawCard,
    bank_name,
    branch,
    bank_address,
    swift,
    holder_name,
    iban,
    beneficiary_address,
    postal_code,
  };
}

function parseId(v: string | undefined): number {
  const s = (v ?? '').trim();
  if (!s) throw invalid('bank.idRequired', 'id');
  if (!/^\d{1,9}$/.test(s)) throw notFound();
  return Number(s);
}

const notFound = () => new AppError('NOT_FOUND', 'bank.notFound', {}, 'id');
const duplicate = () => new AppError('CONFLICT', 'bank.duplicate', {}, 'card_number');

const COLUMNS = `id, user_id, name, card_number, bank_name, branch, bank_address, swift, holder_name, iban,
  beneficiary_address, postal_code, created_at, updated_at`;

/** The card, when it is the user's own (someone else's card is "not found"). */
export async function ownBankCard(q: Queryable, userId: number, id: number): Promise<BankCard | null> {
  const [row] = await q.query<BankCardRow>(
    `SELECT ${COLUMNS} FROM bank_cards WHERE id = $1 AND user_id = $2`,
    [id, userId],
  );
  return row ? toCard(row) : null;
}

export function bankService(ctx: AppContext) {
  const { db } = ctx;

  return {
    async list(userId: number): Promise<BankCard[]> {
      const rows = await db.query<BankCardRow>(
        `SELECT ${COLUMNS} FROM bank_cards WHERE user_id = $1 ORDER BY id`,
        [userId],
      );
      return rows.map(toCard);
    },

    /** Binds a new card, or updates one of the user's own when `id` is given. */
    async save(userId: number, body: BankCardBody): Promise<BankCard> {
      const updateId = (body.id ?? '').trim() ? parseId(body.id) : null;
      const c = parseBankCard(body);
      const values = [
        c.name,
        c.card_number,
        c.bank_name,
        c.branch,
        c.bank_address,
        c.swift,
        c.holder_name,
        c.iban,
        c.beneficiary_address,
        c.postal_code,
      ];
      try {
        return await db.tx(async (q) => {
          // one user's saves are serialised, so the card limit holds under double submits
          await lockUser(q, userId);
          if (updateId !== null) {
            const [row] = await q.query<BankCardRow>(
              `UPDATE bank_cards SET name = $3, card_number = $4, bank_name = $5, branch = $6, bank_address = $7,
                      swift = $8, holder_name = $9, iban = $10, beneficiary_address = $11, postal_code = $12,
                      updated_at = now()
                WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
              [updateId, userId, ...values],
            );
            if (!row) throw notFound();
            return toCard(row);
          }
          const [count] = await q.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM bank_cards WHERE user_id = $1',
            [userId],
          );
          if ((count?.n ?? 0) >= BANK_CARDS_MAX)
            throw new AppError('CONFLICT', 'bank.tooMany', { max: BANK_CARDS_MAX });
          const [dup] = await q.query('SELECT 1 FROM bank_cards WHERE user_id = $1 AND card_number = $2', [
            userId,
            c.card_number,
          ]);
          if (dup) throw duplicate();
          const [row] = await q.query<BankCardRow>(
            `INSERT INTO bank_cards (user_id, name, card_number, bank_name, branch, bank_address, swift, holder_name,
                                     iban, beneficiary_address, postal_code)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
            [userId, ...values],
          );
          return toCard(row!);
        });
      } catch (e) {
        // the same number on another of the user's cards (an update onto an existing number)
        if (isUniqueViolation(e)) throw duplicate();
        throw e;
      }
    },

    async remove(userId: number, idInput: string | undefined): Promise<void> {
      const id = parseId(idInput);
      const rows = await db.query('DELETE FROM bank_cards WHERE id = $1 AND user_id = $2 RETURNING id', [
        id,
        userId,
      ]);
      if (rows.length === 0) throw notFound();
    },

    /** For the wallet's bank withdrawal: the user's own card, or "not found". */
    async get(userId: number, idInput: string | undefined): Promise<BankCard> {
      const card = await ownBankCard(db, userId, parseId(idInput));
      if (!card) throw notFound();
      return card;
    },
  };
}
export type BankService = ReturnType<typeof bankService>;
