import { REASON_MAX, TX_REF_MAX } from '@verdant/api';
import { describe, expect, it } from 'vitest';
import { codeChannel, codeTarget, parseFundPassword, parseReason, parseTxRef } from './parse.ts';

const keys = { required: 'x.required', tooLong: 'x.tooLong' };

describe('shared input parsing', () => {
  it('a rejection reason: trimmed, spaces folded, required, 200 characters at most', () => {
    expect(REASON_MAX).toBe(200);
    expect(parseReason('  Blurry   photo \n of the card ', keys)).toBe('Blurry photo of the card');
    expect(() => parseReason('   ', keys)).toThrow(
      expect.objectContaining({ messageKey: 'x.required', field: 'reason' }),
    );
    // characters as people count them: 200 emoji pass, 201 do not
    expect(parseReason('😀'.repeat(200), keys)).toHaveLength(400);
    expect(() => parseReason('a'.repeat(201), keys)).toThrow(
      expect.objectContaining({ messageKey: 'x.tooLong', params: { max: 200 } }),
    );
  });

  it('a payout reference: trimmed, required, 200 characters at most, inner spaces kept', () => {
    expect(TX_REF_MAX).toBe(200);
    expect(parseTxRef(' TX  42 ', keys)).toBe('TX  42');
    expect(() => parseTxRef(undefined, keys)).toThrow(expect.objectContaining({ field: 'tx_ref' }));
    expect(() => parseTxRef('r'.repeat(201), keys)).toThrow(
      expect.objectContaining({ messageKey: 'x.tooLong' }),
    );
  });

  it('a fund password: required, then six digits', () => {
    expect(parseFundPassword('024680', 'fund_password')).toBe('024680');
    expect(() => parseFundPassword('', 'password')).toThrow(
      expect.objectContaining({ messageKey: 'validation.fundPasswordRequired', field: 'password' }),
    );
    for (const bad of ['12345', '1234567', '12345a', '١٢٣٤٥٦'])
      expect(() => parseFundPassword(bad, 'fund_password')).toThrow(
        expect.objectContaining({ messageKey: 'validation.fundPasswordFormat' }),
      );
  });

  it('a code goes to the channel asked for, else to the e-mail when the user has one', () => {
    expect(codeChannel('mobile', true)).toBe('mobile');
    expect(codeChannel(' email ', false)).toBe('email');
    expect(codeChannel(undefined, true)).toBe('email');
    expect(codeChannel('', false)).toBe('mobile');
    const u = { email: 'a@example.com', area_code: '66', mobile: '812345678' };
    expect(codeTarget(u, 'email')).toBe('a@example.com');
    expect(codeTarget(u, 'mobile')).toBe('+66 812345678');
    expect(codeTarget({ ...u, mobile: null }, 'mobile')).toBeNull();
    expect(codeTarget({ ...u, email: null }, 'email')).toBeNull();
  });
});
