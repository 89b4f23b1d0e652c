import type { RatingState } from './session/chatState';
import { coachTexts } from './texts';

const values = [1, 2, 3, 4, 5] as const;

/** The optional 1–5 rating after the visitor ended a conversation, given once: the coach keeps the first. */
export function RatingPrompt({ rating, onRate }: { rating: RatingState; onRate: (value: number) => void }) {
  const chosen = rating.status === 'none' ? null : rating.value;
  const message =
    rating.status === 'sending'
      ? coachTexts.rating.sending
      : rating.status === 'sent'
        ? coachTexts.rating.thanks
        : rating.status === 'failed'
          ? coachTexts.rating.failed
          : '';
  return (
    <div className="mt-5 rounded-xl bg-brand-50 p-4">
      <fieldset>
        <legend className="font-semibold text-slate-900">{coachTexts.rating.question}</legend>
        <p className="mt-1 text-sm text-slate-700">{coachTexts.rating.optional}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          {values.map((value) => (
            <button
              key={value}
              type="button"
              aria-label={`${value}${coachTexts.rating.outOf}`}
              aria-pressed={chosen === value}
              disabled={rating.status === 'sending' || rating.status === 'sent'}
              onClick={() => onRate(value)}
              className={`h-11 w-11 rounded-full border text-base font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait ${
                chosen === value
                  ? 'border-brand-700 bg-brand-700 text-white'
                  : 'border-brand-700 bg-white text-brand-800 hover:bg-brand-100'
              }`}
            >
              {value}
            </button>
          ))}
        </div>
      </fieldset>
      <p role="status" className="mt-3 min-h-6 text-sm font-medium text-slate-800">
        {message}
      </p>
      <p className="mt-1 text-sm text-slate-700">{coachTexts.rating.restart}</p>
    </div>
  );
}
