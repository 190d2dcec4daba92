/** The Verdant mark: a "V" on brand green. Decorative; the name beside it carries the meaning. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className="v-brand-mark">
      <rect width="32" height="32" rx="8" fill="var(--v-primary)" />
      <path
        d="M8 9l8 15 8-15"
        fill="none"
        stroke="#fff"
        strokeWidth="3.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
