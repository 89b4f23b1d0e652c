/**
 * COMPLETED green check, ERROR red icon, PROCESSING yellow pulsing icon, any other status none.
 * STUCK (a PROCESSING document nobody is working on, see documentPhase.ts) is the yellow icon
 * standing still, with an exclamation mark: nothing is happening any more.
 */
export function StatusIcon({ status }: { status: string }) {
  if (status === 'COMPLETED') {
    return (
      <svg viewBox="0 0 20 20" className="h-5 w-5 text-emerald-600" aria-hidden="true" focusable="false" data-status-icon="COMPLETED">
        <circle cx="10" cy="10" r="9" fill="currentColor" />
        <path d="M6 10.5l2.5 2.5L14 7.5" fill="none" stroke="white" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  }
  if (status === 'ERROR') {
    return (
      <svg viewBox="0 0 20 20" className="h-5 w-5 text-red-600" aria-hidden="true" focusable="false" data-status-icon="ERROR">
        <circle cx="10" cy="10" r="9" fill="currentColor" />
        <path d="M10 5.5v5.5M10 13.5v1" fill="none" stroke="white" strokeWidth="2" strokeLinecap="round" />
      </svg>
    );
  }
  if (status === 'PROCESSING') {
    return (
      <svg viewBox="0 0 20 20" className="h-5 w-5 animate-pulse text-amber-500 motion-reduce:animate-none" aria-hidden="true" focusable="false" data-status-icon="PROCESSING">
        <circle cx="10" cy="10" r="8" fill="currentColor" />
      </svg>
    );
  }
  if (status === 'STUCK') {
    return (
      <svg viewBox="0 0 20 20" className="h-5 w-5 text-amber-500" aria-hidden="true" focusable="false" data-status-icon="STUCK">
        <circle cx="10" cy="10" r="9" fill="currentColor" />
        <path d="M10 5.5v5.5M10 13.5v1" fill="none" stroke="#451a03" strokeWidth="2" strokeLinecap="round" />
      </svg>
    );
  }
  return null;
}
