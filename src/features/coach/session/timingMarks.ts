import type { CoachEvent } from './events';

/**
 * Timing marks for `npm run bench:voice` (harmless elsewhere), at the moment the session reports
 * them: a recorded segment sent and its words back, the early (speculative) start of a reply, the
 * visitor's final words, the first speakable piece and the first sound of an answer.
 */
export function markTimings(event: CoachEvent): void {
  const name = timingOf(event);
  if (name) globalThis.performance.mark(`coach:${name}`);
}

function timingOf(event: CoachEvent): string | null {
  switch (event.type) {
    case 'segment-sent':
      return 'segment-sent';
    case 'segment-words':
      return 'segment-words';
    case 'early-reply-started':
      return 'early-start';
    case 'listening-final':
      return event.text === '' ? null : 'transcript';
    case 'reply-first-chunk':
      return 'first-chunk';
    case 'reply-sounding':
      return 'first-audio';
    default:
      return null;
  }
}
