import { describe, expect, it } from 'vitest';
import { compareDecimalStrings, formatChange, formatCompact, formatDecimal, trendOf } from './markets';

describe('market figures as strings', () => {
  it('truncates and groups prices, never rounding up', () => {
    expect(formatDecimal('55475.939', 2)).toBe('55,475.93');
    expect(formatDecimal('0.1', 4)).toBe('0.1000');
    expect(formatDecimal('1234.5000', 4, false)).toBe('1,234.5');
    expect(formatDecimal('-0.001', 2)).toBe('0.00');
    expect(formatDecimal(null, 2)).toBe('—');
    expect(formatDecimal('1e5', 2)).toBe('—');
  });

  it('orders decimal strings', () => {
    const list = ['-1.5', '10', '9.99', '0', '-10', '0.001', '2'];
    expect([...list].sort(compareDecimalStrings)).toEqual(['-10', '-1.5', '0', '0.001', '2', '9.99', '10']);
    expect(compareDecimalStrings('1.10', '1.1')).toBe(0);
    expect(compareDecimalStrings(null, '-5')).toBe(-1);
  });

  it('shows the 24 h change with its sign and trend', () => {
    expect(formatChange('1.5')).toBe('+1.50%');
    expect(formatChange('-0.3')).toBe('-0.30%');
    expect(formatChange('0.00')).toBe('0.00%');
    expect(trendOf('0.00')).toBe('flat');
    expect(trendOf('-0.01')).toBe('down');
    expect(formatCompact('329835990.626')).toBe('329.83M');
    expect(formatCompact('5980.08')).toBe('5.98K');
    expect(formatCompact('12.345')).toBe('12.34');
  });
});
