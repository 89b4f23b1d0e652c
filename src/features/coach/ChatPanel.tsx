import { useId, useState, type SubmitEvent } from 'react';
import { buttonClass } from '../../components/ui/buttonStyles';
import type { ChatEntry, ChatState } from './session/chatState';
import { RatingPrompt } from './RatingPrompt';
import { coachTexts } from './texts';

function Message({ entry }: { entry: ChatEntry }) {
  if (entry.role === 'divider') {
    return (
      <li className="flex items-center gap-3 py-2 text-sm font-medium text-slate-700">
        <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />
        {coachTexts.chat.newConversation}
        <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />
      </li>
    );
  }
  const mine = entry.role === 'user';
  const waiting = entry.role === 'assistant' && entry.streaming && entry.content === '';
  return (
    <li className={`flex flex-col ${mine ? 'items-end' : 'items-start'}`} data-role={entry.role}>
      <span className="px-1 text-xs font-semibold text-slate-700">{mine ? coachTexts.chat.you : coachTexts.chat.assistant}</span>
      <p
        data-testid="coach-message-text"
        className={`mt-1 max-w-[85%] whitespace-pre-wrap rounded-2xl px-4 py-2.5 ${
          mine
            ? 'rounded-br-sm bg-brand-700 text-white'
            : entry.kind === 'error'
              ? 'rounded-bl-sm border border-amber-300 bg-amber-50 text-slate-900'
              : 'rounded-bl-sm bg-slate-100 text-slate-900'
        }`}
      >
        {waiting ? (
          <>
            <span className="sr-only">{coachTexts.chat.writing}</span>
            <span className="motion-safe:animate-pulse" aria-hidden="true">
              …
            </span>
          </>
        ) : (
          entry.content
        )}
      </p>
    </li>
  );
}

export interface ChatPanelProps {
  chat: ChatState;
  /** Whether a message can be sent now (not while the coach is still working on the last one). */
  canSend: boolean;
  onSend: (text: string) => boolean;
  onEnd: () => void;
  onRate: (value: number) => void;
}

/** The conversation: messages, the text input, the end button and the optional rating. */
export function ChatPanel({ chat, canSend, onSend, onEnd, onRate }: ChatPanelProps) {
  const headingId = useId();
  const inputId = useId();
  const [draft, setDraft] = useState('');
  const blank = draft.trim() === '';

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Enter sends only a message with words in it; a blank one stays in the field.
    if (blank || !canSend) return;
    if (onSend(draft)) setDraft('');
  };

  return (
    <section aria-labelledby={headingId} className="w-full rounded-2xl border border-slate-200 bg-white p-4 text-left shadow-sm sm:p-6">
      <h2 id={headingId} className="text-xl font-bold tracking-tight text-slate-900">
        {coachTexts.chat.title}
      </h2>
      {chat.mode === 'offline' ? (
        <p className="mt-3 rounded-xl border border-brand-200 bg-brand-50 px-4 py-2 text-sm text-slate-800" data-testid="coach-offline">
          {coachTexts.chat.offline}
        </p>
      ) : null}
      <ol className="mt-4 flex flex-col gap-3" data-testid="coach-messages">
        {chat.entries.map((entry) => (
          <Message key={entry.id} entry={entry} />
        ))}
      </ol>
      <form onSubmit={submit} className="mt-5 flex gap-2">
        <label htmlFor={inputId} className="sr-only">
          {coachTexts.chat.inputLabel}
        </label>
        <input
          id={inputId}
          type="text"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder={coachTexts.chat.inputPlaceholder}
          autoComplete="off"
          enterKeyHint="send"
          maxLength={2000}
          className="min-w-0 flex-1 rounded-full border border-slate-400 px-4 py-2.5 text-slate-900 placeholder:text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        />
        <button type="submit" className={buttonClass('primary')} disabled={blank || !canSend}>
          {coachTexts.chat.send}
        </button>
      </form>
      {chat.conversationId !== null && !chat.ended ? (
        <div className="mt-4 flex justify-end">
          <button type="button" onClick={onEnd} className={buttonClass('secondary')}>
            {coachTexts.chat.endConversation}
          </button>
        </div>
      ) : null}
      {chat.ended ? <RatingPrompt rating={chat.rating} onRate={onRate} /> : null}
    </section>
  );
}
