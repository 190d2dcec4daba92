import { describe, expect, it } from 'vitest';
import { formatPhone, maskEmail, maskPhone } from './format';

describe('masking', () => {
  it('keeps the start and end of a phone number', () => {
    expect(maskPhone('0812345678')).toBe('081****678');
    expect(maskPhone('812345678')).toBe('812***678');
    expect(formatPhone('66', '812345678')).toBe('+66 812***678');
  });

  it('keeps the first letters and the domain of an e-mail address', () => {
    expect(maskEmail('someone@example.com')).toBe('so***@example.com');
    expect(maskEmail('a@example.com')).toBe('a***@example.com');
  });
});
