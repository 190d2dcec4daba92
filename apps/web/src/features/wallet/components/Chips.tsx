import './chips.css';

interface Option<V extends string | number> {
  value: V;
  label: string;
}

interface Props<V extends string | number> {
  legend: string;
  options: Option<V>[];
  value: V | null | undefined;
  onChange: (value: V) => void;
}

/** A row of pill buttons to choose one (a coin, a chain). */
export function Chips<V extends string | number>({ legend, options, value, onChange }: Props<V>) {
  return (
    <fieldset className="v-wallet-chips">
      <legend className="v-wallet-chips__legend">{legend}</legend>
      <div className="v-wallet-chips__row">
        {options.map((o) => (
          <button
            key={o.value}
            type="button"
            aria-pressed={o.value === value}
            className={o.value === value ? 'v-wallet-chip is-active' : 'v-wallet-chip'}
            onClick={() => onChange(o.value)}
          >
            {o.label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
