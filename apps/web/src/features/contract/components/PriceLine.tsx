import { useTranslation } from 'react-i18next';

interface Props {
  /** Prices oldest first (decimal strings). */
  points: readonly string[];
  /** Horizontal lines to mark: open, take-profit, stop-loss, liquidation prices. */
  marks?: readonly { price: string; kind: 'open' | 'tp' | 'sl' | 'liq' }[];
}

const W = 360;
const H = 140;

/**
 * The index's recent path as a line. It draws pixels, so prices become numbers here and only
 * here; nothing is computed with them.
 */
export function PriceLine({ points, marks = [] }: Props) {
  const { t } = useTranslation();
  const values = points.map(Number).filter((v) => Number.isFinite(v));
  if (values.length < 2) return <div className="v-contract-chart v-contract-chart--empty" />;
  const all = [...values, ...marks.map((m) => Number(m.price))];
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (hi === lo) {
    hi += 1;
    lo -= 1;
  }
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  const y = (v: number) => H - ((v - lo) / (hi - lo)) * H;
  const step = W / (values.length - 1);
  const line = values.map((v, i) => `${(i * step).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <svg
      className="v-contract-chart"
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={t('contract.chart')}
    >
      {marks.map((m) => (
        <line
          key={`${m.kind}${m.price}`}
          className={`v-contract-chart__mark v-contract-chart__mark--${m.kind}`}
          x1={0}
          x2={W}
          y1={y(Number(m.price))}
          y2={y(Number(m.price))}
        />
      ))}
      <polyline className="v-contract-chart__line" points={line} />
    </svg>
  );
}
