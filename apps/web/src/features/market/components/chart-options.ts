// Indicator names of klinecharts, kept apart from the chart module so the page can list them
// without loading the chart library.
export const MAIN_INDICATORS = ['MA', 'EMA', 'BOLL'] as const;
export const SUB_INDICATORS = ['VOL', 'MACD', 'KDJ', 'RSI'] as const;
export type MainIndicator = (typeof MAIN_INDICATORS)[number];
export type SubIndicator = (typeof SUB_INDICATORS)[number];

const NEGATIVE_ZERO = /^-0(?:\.0+)?$/;

/**
 * A number as the chart writes it on its axes and legends, with no sign on a zero: klinecharts
 * computes an indicator on a market with no volume as a tiny negative float and writes
 * "-0.00000". Its decimals are left as they are (no folding of 0.00003 into "0.0{4}3").
 */
export function chartNumber(value: string | number): string {
  const s = String(value);
  return NEGATIVE_ZERO.test(s) ? s.slice(1) : s;
}
