import { coachTexts } from '../texts';

/**
 * The voice button as a state machine (a reducer): idle → ready → listening → processing →
 * speaking → ready. The reducer is pure; the session that owns it runs the effects (recognition,
 * the coach call, playback) and feeds their outcome back as events. An event that does not fit
 * the current state is ignored, so a late callback of a cancelled step cannot move the button.
 *
 * 'paused' belongs to hands-free mode (beyond the specification): after a long quiet spell the
 * coach stops listening but stays hands-free, visibly; the visitor's voice or a click resumes.
 */
export type VoiceStatus = 'idle' | 'ready' | 'listening' | 'processing' | 'speaking' | 'paused';

export type HintId = keyof typeof coachTexts.hints;

export interface VoiceState {
  status: VoiceStatus;
  /** The status hint of the aria-live region; null before the conversation starts. */
  hint: HintId | null;
  /** A catalogue message about the last step (microphone, recognition, playback), or null. */
  notice: string | null;
  /** The live caption of the recognition's interim result while listening. */
  caption: string;
  /**
   * Processing the recorded speech into words (the speech-to-text path): a transcript, or a
   * recognition problem, is still to come. Absent otherwise.
   */
  transcribing?: true;
}

export type VoiceEvent =
  /** First click: the chat panel opens and the greeting is spoken. */
  | { type: 'OPEN' }
  /** Recording starts; from speaking this is the barge-in (the session stops the audio); from paused it resumes. */
  | { type: 'LISTEN' }
  /** Hands-free: a long quiet spell while listening; the microphone stays open for the visitor's voice. */
  | { type: 'PAUSE' }
  | { type: 'INTERIM'; text: string }
  /** The recording is over and is being turned into words (speech-to-text path). */
  | { type: 'TRANSCRIBING' }
  /** The recogniser's final transcript: sent when it has words, ignored when blank. */
  | { type: 'TRANSCRIPT'; text: string }
  /** Recognition ended without a final transcript (stopped by a click or by silence). */
  | { type: 'LISTEN_END' }
  | { type: 'LISTEN_ERROR'; message: string }
  /** A click on the button in a browser without speech recognition. */
  | { type: 'UNSUPPORTED' }
  /** A typed message is sent (stops listening or speaking first). */
  | { type: 'SEND_TEXT' }
  /** The first audio of the answer started. */
  | { type: 'SPEAKING' }
  /** The answer (text and audio) is complete. */
  | { type: 'DONE' }
  /** The step failed; the message says why (the answer's text, if any, stays readable). */
  | { type: 'FAILED'; message: string }
  /** The visitor ended the conversation: stop listening, processing or speaking. */
  | { type: 'CANCEL' }
  /** A problem that does not end the step (e.g. audio blocked while the text keeps streaming). */
  | { type: 'NOTICE'; message: string };

export const initialVoiceState: VoiceState = { status: 'idle', hint: null, notice: null, caption: '' };

export function voiceButtonReducer(state: VoiceState, event: VoiceEvent): VoiceState {
  switch (event.type) {
    case 'OPEN':
      return state.status === 'idle' ? { status: 'speaking', hint: 'answering', notice: null, caption: '' } : state;
    case 'LISTEN':
      return state.status === 'ready' || state.status === 'speaking' || state.status === 'paused'
        ? { status: 'listening', hint: 'listening', notice: null, caption: '' }
        : state;
    case 'PAUSE':
      return state.status === 'listening' ? { status: 'paused', hint: 'paused', notice: null, caption: '' } : state;
    case 'INTERIM':
      return state.status === 'listening' ? { ...state, caption: event.text } : state;
    case 'TRANSCRIBING':
      return state.status === 'listening'
        ? { status: 'processing', hint: 'processing', notice: null, caption: state.caption, transcribing: true }
        : state;
    case 'TRANSCRIPT':
      if (state.status !== 'listening' && !state.transcribing) return state;
      return event.text.trim() === ''
        ? { status: 'ready', hint: 'stopped', notice: null, caption: '' }
        : { status: 'processing', hint: 'processing', notice: null, caption: '' };
    case 'LISTEN_END':
      return state.status === 'listening' ? { status: 'ready', hint: 'stopped', notice: null, caption: '' } : state;
    case 'LISTEN_ERROR':
      return state.status === 'listening' || state.transcribing
        ? { status: 'ready', hint: 'stopped', notice: event.message, caption: '' }
        : state;
    case 'UNSUPPORTED':
      return state.status === 'ready' ? { ...state, notice: coachTexts.errors.unsupported } : state;
    case 'SEND_TEXT':
      return state.status === 'ready' || state.status === 'listening' || state.status === 'speaking' || state.status === 'paused'
        ? { status: 'processing', hint: 'processing', notice: null, caption: '' }
        : state;
    case 'SPEAKING':
      return state.status === 'processing' ? { ...state, status: 'speaking', hint: 'answering' } : state;
    case 'DONE':
      return state.status === 'processing' || state.status === 'speaking'
        ? { ...state, status: 'ready', hint: 'ready', caption: '' }
        : state;
    case 'FAILED':
      return state.status === 'processing' || state.status === 'speaking'
        ? { status: 'ready', hint: 'ready', notice: event.message, caption: '' }
        : state;
    case 'CANCEL':
      return state.status === 'idle' || state.status === 'ready'
        ? state
        : { status: 'ready', hint: 'ready', notice: null, caption: '' };
    case 'NOTICE':
      return state.status === 'idle' ? state : { ...state, notice: event.message };
  }
}

/** What a click on the button does in each state (the session performs it). */
export type ClickAction = 'open' | 'listen' | 'stop' | 'bargeIn' | 'none';

export function clickAction(status: VoiceStatus): ClickAction {
  switch (status) {
    case 'idle':
      return 'open';
    case 'ready':
    case 'paused':
      return 'listen';
    case 'listening':
      return 'stop';
    case 'speaking':
      return 'bargeIn';
    case 'processing':
      return 'none';
  }
}

export function voiceButtonLabel(status: VoiceStatus): string {
  return coachTexts.button[status];
}

/**
 * The specification's colours: idle purple, ready blue, listening red, speaking green; processing
 * amber (not specified: the usual "busy" colour). All shades keep white text at AA contrast.
 */
export const voiceButtonColour: Record<VoiceStatus, string> = {
  idle: 'bg-purple-700 hover:bg-purple-800',
  ready: 'bg-blue-700 hover:bg-blue-800',
  listening: 'bg-red-700 hover:bg-red-800',
  processing: 'bg-amber-700',
  speaking: 'bg-green-700 hover:bg-green-800',
  /** Not specified (hands-free is beyond the seed): grey, resting. */
  paused: 'bg-slate-700 hover:bg-slate-800',
};

export function hintText(hint: HintId | null): string {
  return hint ? coachTexts.hints[hint] : '';
}
