import { useTranslation } from 'react-i18next';

export interface ChartPoint {
  time: number;
  price: string;
}

interface Props {
  name: string;
  points: readonly ChartPoint[];
  /** Purchase prices of the options waiting on this market: drawn as dashed lines. */
  marks: readonly { price: string; direction: 'bullish' | 'bearish' }[];
}

const W = 360;
const H = 170;
const PAD = 8;

/**
 * The live index as a line (an SVG of the recorded prices: the last half hour of 1-minute closes,
 * then every tick). The chart draws pixels, so prices become numbers here and only here.
 */
export function IndexChart({ name, points, marks }: Props) {
  const { t } = useTranslation();
  if (points.length < 2)
    return (
      <div
        className="v-option-chart v-option-chart--empty"
        role="img"
        aria-label={t('option.chart', { name })}
      />
    );
  const ys = [...points.map((p) => Number(p.price)), ...marks.map((m) => Number(m.price))];
  let lo = Math.min(...ys);
  let hi = Math.max(...ys);
  if (hi === lo) {
    hi += 1;
    lo -= 1;
  }
  const t0 = points[0]!.time;
  const t1 = points[points.length - 1]!.time;
  const x = (tm: number) => PAD + ((tm - t0) / Math.max(1, t1 - t0)) * (W - 2 * PAD);
  const y = (p: number) => PAD + (1 - (p - lo) / (hi - lo)) * (H - 2 * PAD);
  const d = points
    .map((p, i) => `${i ? 'L' : 'M'}${x(p.time).toFixed(1)},${y(Number(p.price)).toFixed(1)}`)
    .join('');
  const last = points[points.length - 1]!;
  return (
    <svg
      className="v-option-chart"
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={t('option.chart', { name })}
    >
      <path d={`${d}L${x(t1).toFixed(1)},${H}L${x(t0).toFixed(1)},${H}Z`} className="v-option-chart__area" />
      <path d={d} className="v-option-chart__line" />
      {marks.map((m, i) => (
        <line
          // biome-ignore lint/suspicious/noArrayIndexKey: marks have no identity beyond their place
          key={i}
          x1={0}
          x2={W}
          y1={y(Number(m.price))}
          y2={y(Number(m.price))}
          className={`v-option-chart__mark v-option-chart__mark--${m.direction}`}
        />
      ))}
      <circle cx={x(last.time)} cy={y(Number(last.price))} r={3.5} className="v-option-chart__dot" />
    </svg>
  );
}
