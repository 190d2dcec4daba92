import type { ReactNode } from 'react';

type TabRowProps<K extends string | number> = {
  /** The choices, in order. */
  options: readonly K[];
  value: K;
  onChange: (k: K) => void;
  /** What a tab says. */
  labelOf: (k: K) => ReactNode;
  /** The row's class (each feature styles its own row). */
  className: string;
  /** A tab's class; the chosen one gets `is-active` as well. */
  tabClassName: string | ((k: K) => string);
  /** The row's accessible name, where the tabs alone don't say what they choose. */
  label?: string;
};

/** A row of tabs of which one is chosen (sides, order types, intervals, lists): one way to say it to assistive technology. */
export function TabRow<K extends string | number>({
  options,
  value,
  onChange,
  labelOf,
  className,
  tabClassName,
  label,
}: TabRowProps<K>) {
  return (
    <div className={className} role="tablist" aria-label={label}>
      {options.map((k) => {
        const base = typeof tabClassName === 'function' ? tabClassName(k) : tabClassName;
        return (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={value === k}
            className={value === k ? `${base} is-active` : base}
            onClick={() => onChange(k)}
          >
            {labelOf(k)}
          </button>
        );
      })}
    </div>
  );
}
