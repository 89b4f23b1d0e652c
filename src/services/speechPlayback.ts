/**
 * One text spoken through the speech queue (speechQueue.ts) and awaited: the admin's "Probehören".
 * The queue does the branching (provider PCM or the browser's voice) and the error reporting.
 */
import { unlockAudio } from './audioOutput';
import { PlaybackError } from './speechErrors';
import { createSpeechQueue } from './speechQueue';
import type { SpeechOptions } from './tts';

/**
 * Speaks a text and resolves when it has been spoken (or was stopped through the signal). Call it
 * from the click handler, so the audio is unlocked by the click. Rejects with TtsError (the
 * function refused: its catalogue message) or PlaybackError (the browser could not play: autoplay
 * blocked or Web Audio missing); speechErrors.ts says what to show for each.
 */
export async function speak(text: string, { signal, cache, voiceSettings, accessToken }: SpeechOptions = {}): Promise<void> {
  unlockAudio();
  const problems: Error[] = [];
  const queue = createSpeechQueue({
    signal: signal ?? new AbortController().signal,
    onStart: () => undefined,
    onProblem: (error) => problems.push(error instanceof Error ? error : new PlaybackError('failed', String(error))),
    voice: { ...(voiceSettings ? { voiceSettings } : {}), ...(accessToken ? { accessToken } : {}) },
  });
  queue.enqueue(text, { cache: cache === true });
  await queue.finished();
  const [problem] = problems;
  if (problem) throw problem;
}
