import { describe, expect, it } from 'vitest';
import { chartNumber } from './chart-options';

describe("the chart's numbers", () => {
  it('show a zero without a sign (an indicator on a market with no volume)', () => {
    expect(chartNumber('-0.00000')).toBe('0.00000');
    expect(chartNumber('-0')).toBe('0');
    expect(chartNumber(-0)).toBe('0');
  });

  it('keep every other value as written: signs, separators, small decimals unfolded', () => {
    expect(chartNumber('-0.00003')).toBe('-0.00003');
    expect(chartNumber('0.00003')).toBe('0.00003');
    expect(chartNumber('-1,234.50')).toBe('-1,234.50');
    expect(chartNumber('52,240.59')).toBe('52,240.59');
  });
});
