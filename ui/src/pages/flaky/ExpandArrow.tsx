/** The chevron of an expandable row; turned down when open. */
export function ExpandArrow({ open }: { open: boolean }) {
  return (
    <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 150ms ease', display: 'block' }}>
      <path d="M9 6l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
