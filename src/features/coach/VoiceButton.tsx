import { hintText, voiceButtonColour, voiceButtonLabel, type VoiceState, type VoiceStatus } from './session/voiceButtonMachine';
import { coachTexts } from './texts';

function Icon({ status }: { status: VoiceStatus }) {
  const common = { viewBox: '0 0 24 24', className: 'h-6 w-6 shrink-0', 'aria-hidden': true, focusable: false } as const;
  if (status === 'processing') {
    return (
      <svg {...common} className="h-6 w-6 shrink-0 motion-safe:animate-spin">
        <path d="M12 3a9 9 0 1 0 9 9" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
    );
  }
  if (status === 'speaking') {
    return (
      <svg {...common}>
        <path d="M4 9v6h4l5 4V5L8 9H4z" fill="currentColor" />
        <path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <rect x="9" y="3" width="6" height="11" rx="3" fill="currentColor" />
      <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The big centred button with its status hint (an aria-live region) and, while listening, the
 * live caption of what the recogniser heard so far. `onPress` runs when the main mouse button goes
 * down on it, the tenth of a second before its click (a touch or a key has no such moment: a touch
 * may still become a scroll, and a press there is not a user activation that may start audio).
 */
export function VoiceButton({ state, onPress, onClick }: { state: VoiceState; onPress: () => void; onClick: () => void }) {
  const { status } = state;
  return (
    <div className="flex w-full flex-col items-center gap-4">
      <div className="relative">
        {status === 'listening' ? (
          <span className="absolute -inset-2 rounded-full bg-red-200 motion-safe:animate-pulse" aria-hidden="true" />
        ) : null}
        <button
          type="button"
          onPointerDown={(event) => {
            if (event.pointerType === 'mouse' && event.button === 0) onPress();
          }}
          onClick={onClick}
          data-state={status}
          aria-disabled={status === 'processing' ? true : undefined}
          className={`relative inline-flex min-h-16 max-w-full items-center justify-center gap-3 rounded-full px-7 py-4 text-lg font-semibold text-white shadow-lg transition-colors focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-brand-700 ${voiceButtonColour[status]} ${status === 'processing' ? 'cursor-progress' : ''}`}
        >
          <Icon status={status} />
          <span>{voiceButtonLabel(status)}</span>
        </button>
      </div>
      <p role="status" aria-live="polite" className="min-h-6 text-base font-medium text-slate-800" data-testid="coach-hint">
        {hintText(state.hint)}
      </p>
      {status === 'listening' && state.caption !== '' ? (
        <p className="max-w-xl text-slate-800" data-testid="coach-caption">
          <span className="font-semibold">{coachTexts.chat.caption}: </span>
          <q className="italic">{state.caption}</q>
        </p>
      ) : null}
      <div role="alert" className="w-full max-w-xl">
        {state.notice ? (
          <p className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-slate-900">{state.notice}</p>
        ) : null}
      </div>
    </div>
  );
}
