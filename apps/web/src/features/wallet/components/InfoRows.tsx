import type { ReactNode } from 'react';
import './info-rows.css';

export interface InfoRow {
  label: string;
  value: ReactNode;
  /** a highlighted value (a total, a reason) */
  tone?: 'strong' | 'danger' | 'muted';
}

/** Label on the left, value on the right: the details of a record or a form's summary. */
export function InfoRows({
  rows,
  className,
}: {
  rows: (InfoRow | false | null | undefined)[];
  className?: string;
}) {
  return (
    <dl className={`v-wallet-info ${className ?? ''}`}>
      {rows.filter(Boolean).map((r) => {
        const row = r as InfoRow;
        return (
          <div key={row.label} className="v-wallet-info__row">
            <dt>{row.label}</dt>
            <dd className={row.tone ? `is-${row.tone}` : undefined}>{row.value}</dd>
          </div>
        );
      })}
    </dl>
  );
}
