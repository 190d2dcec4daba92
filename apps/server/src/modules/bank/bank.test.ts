import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

interface Card {
  id: number;
  name: string;
  card_number: string;
  card_number_masked: string;
  swift: string;
  iban: string;
  holder_name: string;
  branch: string;
  postal_code: string;
}

const CARD = {
  name: 'Somchai Jaidee',
  card_number: '1234 5678 9012',
  bank_name: 'Westminster Bank',
  branch: 'Islington',
  bank_address: '1 High Street, London',
  swift: 'natagb2l',
  holder_name: 'SOMCHAI JAIDEE',
  iban: 'GB82 WEST 1234 5698 7654 32',
  beneficiary_address: '99 Sukhumvit Road, Bangkok',
  postal_code: '10110',
};

const save = (token: string, body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<Card>('POST', 'user/cash_save', body, { token, lang });
const list = (token: string) => h.call<Card[]>('POST', 'user/cash_info', {}, { token });

describe('bank cards (user/cash_save, user/cash_info, user/cash_delete)', () => {
  it('binds a card with every field of spec §3, normalised, and lists it masked for lists', async () => {
    const u = await registerByEmail(h);
    const res = await save(u.token, CARD);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'ok', code: 1, message: 'Binding successful' });
    expect(res.body.data).toMatchObject({
      name: 'Somchai Jaidee',
      card_number: '123456789012',
      card_number_masked: '**** **** 9012',
      bank_name: 'Westminster Bank',
      branch: 'Islington',
      bank_address: '1 High Street, London',
      swift: 'NATAGB2L',
      holder_name: 'SOMCHAI JAIDEE',
      iban: 'GB82WEST12345698765432',
      beneficiary_address: '99 Sukhumvit Road, Bangkok',
      postal_code: '10110',
    });
    const cards = await list(u.token);
    expect(cards.body.type).toBe('ok');
    expect(cards.body.data).toHaveLength(1);
    expect(cards.body.data[0]).toEqual(res.body.data);
  });

  it('optional fields may be left out; an 11-character SWIFT code is fine', async () => {
    const u = await registerByEmail(h);
    const res = await save(u.token, {
      name: '李明',
      card_number: '6222020200112233',
      bank_name: '中国工商银行',
      swift: 'ICBKCNBJ400',
      holder_name: 'LI MING',
    });
    expect(res.body.type).toBe('ok');
    expect(res.body.data).toMatchObject({ iban: '', branch: '', postal_code: '', swift: 'ICBKCNBJ400' });
  });

  it('checks required fields and formats: "Binding failed" with the reason, on the field at fault', async () => {
    const u = await registerByEmail(h);
    const cases: [Record<string, string>, string, string][] = [
      [{ ...CARD, name: '  ' }, 'Binding failed: Please enter the name', 'name'],
      [{ ...CARD, card_number: '' }, 'Binding failed: Please enter the card number', 'card_number'],
      [
        { ...CARD, card_number: '1234 567' },
        'Binding failed: The card number must be 8 to 30 digits',
        'card_number',
      ],
      [
        { ...CARD, card_number: '1234-5678-9012' },
        'Binding failed: The card number must be 8 to 30 digits',
        'card_number',
      ],
      [
        { ...CARD, card_number: '1'.repeat(31) },
        'Binding failed: The card number must be 8 to 30 digits',
        'card_number',
      ],
      [{ ...CARD, bank_name: '' }, 'Binding failed: Please enter the bank name', 'bank_name'],
      [{ ...CARD, swift: '' }, 'Binding failed: Please enter the SWIFT code', 'swift'],
      [{ ...CARD, swift: 'NATAGB2' }, 'Binding failed: The SWIFT code is not valid', 'swift'],
      [{ ...CARD, swift: 'NATAGB2L1' }, 'Binding failed: The SWIFT code is not valid', 'swift'],
      [{ ...CARD, swift: 'NAT1GB2L' }, 'Binding failed: The SWIFT code is not valid', 'swift'],
      [{ ...CARD, swift: 'NATAG12L' }, 'Binding failed: The SWIFT code is not valid', 'swift'],
      [{ ...CARD, swift: 'NATAXX2L' }, 'Binding failed: The SWIFT code is not valid', 'swift'],
      [{ ...CARD, swift: 'NATAGB2L12!' }, 'Binding failed: The SWIFT code is not valid', 'swift'],
      [
        { ...CARD, holder_name: '' },
        "Binding failed: Please enter the cardholder's full name",
        'holder_name',
      ],
      // one digit changed: the mod-97 checksum no longer holds
      [{ ...CARD, iban: 'GB82WEST12345698765433' }, 'Binding failed: The IBAN is not valid', 'iban'],
      [{ ...CARD, iban: 'GB82WEST1234569876543' }, 'Binding failed: The IBAN is not valid', 'iban'],
      [{ ...CARD, iban: 'not an iban' }, 'Binding failed: The IBAN is not valid', 'iban'],
      [{ ...CARD, postal_code: '<b>' }, 'Binding failed: The postal code is not valid', 'postal_code'],
      [
        { ...CARD, branch: 'x'.repeat(101) },
        'Binding failed: This entry is too long (100 characters at most)',
        'branch',
      ],
    ];
    for (const [body, message, field] of cases) {
      const res = await save(u.token, body);
      expect(res.status, message).toBe(400);
      expect(res.body).toEqual({ type: 'error', code: 1400, message, field });
    }
    expect((await list(u.token)).body.data).toEqual([]);
  });

  it('answers in the language asked for, Thai by default', async () => {
    const u = await registerByEmail(h);
    const th = await save(u.token, { ...CARD, swift: 'XX' }, 'th');
    expect(th.body.message).toBe('ผูกบัตรไม่สำเร็จ: รหัส SWIFT ไม่ถูกต้อง');
  });

  it('updates and deletes only the owner\'s cards: another user\'s id is "not found"', async () => {
    const owner = await registerByEmail(h);
    const other = await registerByEmail(h);
    const card = (await save(owner.token, CARD)).body.data;

    const upd = await save(owner.token, { ...CARD, id: String(card.id), branch: 'Camden', iban: '' });
    expect(upd.body).toMatchObject({ type: 'ok', data: { id: card.id, branch: 'Camden', iban: '' } });

    const steal = await save(other.token, { ...CARD, id: String(card.id), holder_name: 'THIEF' });
    expect(steal.status).toBe(404);
    expect(steal.body).toMatchObject({ type: 'error', code: 1404, message: 'This bank card does not exist' });
    const del = await h.call('POST', 'user/cash_delete', { id: String(card.id) }, { token: other.token });
    expect(del.status).toBe(404);
    expect(del.body.message).toBe('This bank card does not exist');
    expect((await list(other.token)).body.data).toEqual([]);
    expect((await list(owner.token)).body.data[0]).toMatchObject({ holder_name: 'SOMCHAI JAIDEE' });

    const missing = await h.call('POST', 'user/cash_delete', {}, { token: owner.token });
    expect(missing.body).toMatchObject({ type: 'error', message: 'Please choose a bank card', field: 'id' });
    const ok = await h.call('POST', 'user/cash_delete', { id: String(card.id) }, { token: owner.token });
    expect(ok.body).toMatchObject({ type: 'ok', message: 'Bank card removed' });
    expect((await list(owner.token)).body.data).toEqual([]);
  });

  it('refuses the same card number twice for one user, also when two saves race', async () => {
    const u = await registerByEmail(h);
    const [a, b] = await Promise.all([save(u.token, CARD), save(u.token, CARD)]);
    expect([a.body.type, b.body.type].sort()).toEqual(['error', 'ok']);
    const failed = a.body.type === 'error' ? a : b;
    expect(failed.status).toBe(409);
    expect(failed.body.message).toBe('Binding failed: This card is already bound');
    expect((await list(u.token)).body.data).toHaveLength(1);
  });

  it('needs a login: 999 with HTTP 401', async () => {
    for (const path of ['user/cash_info', 'user/cash_save', 'user/cash_delete']) {
      const res = await h.call('POST', path, CARD);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ type: '999', code: 999, message: 'Please log in first' });
    }
  });
});
