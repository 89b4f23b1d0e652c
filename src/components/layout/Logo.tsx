/** The brand mark: sound bars in a rounded square (decorative; the link carries the name). */
export function LogoMark({ className = 'h-8 w-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#4338ca" />
      <path
        d="M9 11v10M13 8v16M17 12v8M21 9v14M25 13v6"
        stroke="#fff"
        strokeWidth="2.4"
        strokeLinecap="round"
      />
    </svg>
  );
}
