/** "No data" and its kin: a quiet illustration and one line of text. */
export function EmptyState({ text }: { text: string }) {
  return (
    <div className="v-empty" role="status">
      <svg viewBox="0 0 64 48" width="64" height="48" aria-hidden="true">
        <rect x="8" y="10" width="48" height="32" rx="6" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M8 22h14l4 6h12l4-6h14" fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
      <span>{text}</span>
    </div>
  );
}
