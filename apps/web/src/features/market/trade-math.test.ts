import { describe, expect, it } from 'vitest';
import { buyQuantity, feePercent, floorToStep, orderValue, percentOf, sellQuantity } from './trade-math';

describe('order form arithmetic', () => {
  it('rounds quantities down to whole lots', () => {
    expect(floorToStep('0.123456', '0.0001')).toBe('0.1234');
    expect(floorToStep('7', '5')).toBe('5');
    expect(buyQuantity('1000', 100, '30000', '0.00001')).toBe('0.03333');
    expect(buyQuantity('1000', 50, '0', '0.00001')).toBe('0');
    expect(sellQuantity('0.123456789', 100, '0.00001')).toBe('0.12345');
  });

  it('computes amounts and fees on decimal strings', () => {
    expect(percentOf('100.000001', 75, 6)).toBe('75');
    expect(percentOf('0.3', 25, 2)).toBe('0.07');
    expect(orderValue('0.1', '0.2', 8)).toBe('0.02');
    expect(feePercent('0.001')).toBe('0.1');
  });
});
