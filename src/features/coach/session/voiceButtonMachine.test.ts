import { describe, expect, it } from 'vitest';
import { persona } from '../../../config/persona';
import { coachTexts } from '../texts';
import {
  clickAction,
  hintText,
  initialVoiceState,
  voiceButtonColour,
  voiceButtonLabel,
  voiceButtonReducer,
  type VoiceEvent,
  type VoiceState,
  type VoiceStatus,
} from './voiceButtonMachine';

const state = (status: VoiceStatus, extra: Partial<VoiceState> = {}): VoiceState => ({
  status,
  hint: status === 'idle' ? null : 'ready',
  notice: null,
  caption: '',
  ...extra,
});

const allStatuses: VoiceStatus[] = ['idle', 'ready', 'listening', 'processing', 'speaking'];

/** Every event is ignored in the states not listed for it. */
function expectIgnoredOutside(event: VoiceEvent, handled: VoiceStatus[]) {
  for (const status of allStatuses.filter((s) => !handled.includes(s))) {
    const before = state(status, { notice: 'vorher' });
    expect(voiceButtonReducer(before, event), `${event.type} in ${status}`).toBe(before);
  }
}

/** The colour a visitor sees, by name (the class also carries a hover shade). */
const colourOf = (status: VoiceStatus) => /bg-(\w+)-700/.exec(voiceButtonColour[status])?.[1];

/** Applies the events one by one and returns what the button shows after each. */
function shown(events: VoiceEvent[]) {
  let current = initialVoiceState;
  return events.map((event) => {
    current = voiceButtonReducer(current, event);
    return { label: voiceButtonLabel(current.status), colour: colourOf(current.status), hint: hintText(current.hint) };
  });
}

describe('voice button: what the visitor sees', () => {
  it('before the first click: purple, no hint, a label that starts the conversation', () => {
    expect({ label: voiceButtonLabel('idle'), colour: colourOf('idle'), hint: hintText(initialVoiceState.hint) }).toEqual({
      label: 'Klick hier und starte das Gespräch',
      colour: 'purple',
      hint: '',
    });
  });

  it('a spoken exchange shows the specification’s labels, colours and hints step by step', () => {
    expect(
      shown([
        { type: 'OPEN' },
        { type: 'DONE' },
        { type: 'LISTEN' },
        { type: 'TRANSCRIPT', text: 'Was hilft gegen Stress?' },
        { type: 'SPEAKING' },
        { type: 'DONE' },
      ]),
    ).toEqual([
      { label: `${persona.name} spricht...`, colour: 'green', hint: `${persona.name} antwortet...` },
      { label: 'Klick hier und sprich mit mir', colour: 'blue', hint: 'Bereit zum Aufnehmen' },
      { label: 'Ich höre zu... (Klick zum Beenden)', colour: 'red', hint: 'Aufnahme läuft...' },
      { label: 'Einen Moment bitte...', colour: 'amber', hint: 'Verarbeite Anfrage...' },
      { label: `${persona.name} spricht...`, colour: 'green', hint: `${persona.name} antwortet...` },
      { label: 'Klick hier und sprich mit mir', colour: 'blue', hint: 'Bereit zum Aufnehmen' },
    ]);
  });

  it('a recording stopped without words says "Aufnahme gestoppt"', () => {
    expect(shown([{ type: 'OPEN' }, { type: 'DONE' }, { type: 'LISTEN' }, { type: 'LISTEN_END' }]).at(-1)).toEqual({
      label: 'Klick hier und sprich mit mir',
      colour: 'blue',
      hint: 'Aufnahme gestoppt',
    });
  });

  it('no two states look alike', () => {
    expect(new Set(allStatuses.map(voiceButtonLabel)).size).toBe(allStatuses.length);
    expect(new Set(allStatuses.map(colourOf)).size).toBe(allStatuses.length);
  });

  it('maps a click to what it means in each state', () => {
    expect(clickAction('idle')).toBe('open');
    expect(clickAction('ready')).toBe('listen');
    expect(clickAction('listening')).toBe('stop');
    expect(clickAction('processing')).toBe('none');
    expect(clickAction('speaking')).toBe('bargeIn');
  });
});

describe('voice button transitions', () => {
  it('starts idle with no hint', () => {
    expect(initialVoiceState).toEqual({ status: 'idle', hint: null, notice: null, caption: '' });
  });

  it('OPEN: idle → speaking (the greeting), hint "… antwortet..."', () => {
    expect(voiceButtonReducer(initialVoiceState, { type: 'OPEN' })).toEqual({
      status: 'speaking',
      hint: 'answering',
      notice: null,
      caption: '',
    });
    expectIgnoredOutside({ type: 'OPEN' }, ['idle']);
  });

  it('LISTEN: ready → listening, clearing an earlier notice', () => {
    expect(voiceButtonReducer(state('ready', { notice: coachTexts.errors.noSpeech }), { type: 'LISTEN' })).toEqual({
      status: 'listening',
      hint: 'listening',
      notice: null,
      caption: '',
    });
  });

  it('LISTEN: speaking → listening (barge-in)', () => {
    expect(voiceButtonReducer(state('speaking', { hint: 'answering' }), { type: 'LISTEN' })).toMatchObject({
      status: 'listening',
      hint: 'listening',
    });
    expectIgnoredOutside({ type: 'LISTEN' }, ['ready', 'speaking']);
  });

  it('INTERIM: updates the caption while listening only', () => {
    expect(voiceButtonReducer(state('listening', { hint: 'listening' }), { type: 'INTERIM', text: 'Wie geht' })).toEqual({
      status: 'listening',
      hint: 'listening',
      notice: null,
      caption: 'Wie geht',
    });
    expectIgnoredOutside({ type: 'INTERIM', text: 'x' }, ['listening']);
  });

  it('TRANSCRIPT with words: listening → processing', () => {
    expect(
      voiceButtonReducer(state('listening', { caption: 'Hallo' }), { type: 'TRANSCRIPT', text: 'Hallo Mia' }),
    ).toEqual({ status: 'processing', hint: 'processing', notice: null, caption: '' });
  });

  it('TRANSCRIPT blank: listening → ready, "Aufnahme gestoppt" (ignored)', () => {
    expect(voiceButtonReducer(state('listening'), { type: 'TRANSCRIPT', text: '   ' })).toEqual({
      status: 'ready',
      hint: 'stopped',
      notice: null,
      caption: '',
    });
    expectIgnoredOutside({ type: 'TRANSCRIPT', text: 'Hallo' }, ['listening']);
  });

  it('TRANSCRIBING: listening → processing while recorded speech becomes words; then TRANSCRIPT or LISTEN_ERROR', () => {
    const transcribing = voiceButtonReducer(state('listening', { caption: 'Hal' }), { type: 'TRANSCRIBING' });
    expect(transcribing).toEqual({ status: 'processing', hint: 'processing', notice: null, caption: 'Hal', transcribing: true });
    expect(voiceButtonReducer(transcribing, { type: 'TRANSCRIPT', text: 'Hallo Mia' })).toEqual({
      status: 'processing',
      hint: 'processing',
      notice: null,
      caption: '',
    });
    expect(voiceButtonReducer(transcribing, { type: 'TRANSCRIPT', text: '' })).toEqual({
      status: 'ready',
      hint: 'stopped',
      notice: null,
      caption: '',
    });
    expect(voiceButtonReducer(transcribing, { type: 'LISTEN_ERROR', message: coachTexts.errors.noSpeech })).toEqual({
      status: 'ready',
      hint: 'stopped',
      notice: coachTexts.errors.noSpeech,
      caption: '',
    });
    expectIgnoredOutside({ type: 'TRANSCRIBING' }, ['listening']);
    // A late transcript cannot move a text question that is being processed.
    expect(voiceButtonReducer(state('processing'), { type: 'TRANSCRIPT', text: 'spät' })).toEqual(state('processing'));
  });

  it('LISTEN_END: listening → ready, "Aufnahme gestoppt"', () => {
    expect(voiceButtonReducer(state('listening', { caption: 'ha' }), { type: 'LISTEN_END' })).toEqual({
      status: 'ready',
      hint: 'stopped',
      notice: null,
      caption: '',
    });
    expectIgnoredOutside({ type: 'LISTEN_END' }, ['listening']);
  });

  it('LISTEN_ERROR: listening → ready with the message', () => {
    expect(
      voiceButtonReducer(state('listening'), { type: 'LISTEN_ERROR', message: coachTexts.errors.microphoneDenied }),
    ).toEqual({ status: 'ready', hint: 'stopped', notice: coachTexts.errors.microphoneDenied, caption: '' });
    expectIgnoredOutside({ type: 'LISTEN_ERROR', message: 'x' }, ['listening']);
  });

  it('UNSUPPORTED: stays ready and says the browser cannot recognise speech', () => {
    expect(voiceButtonReducer(state('ready'), { type: 'UNSUPPORTED' })).toEqual({
      ...state('ready'),
      notice: 'Browser unterstützt keine Spracherkennung',
    });
    expectIgnoredOutside({ type: 'UNSUPPORTED' }, ['ready']);
  });

  it('SEND_TEXT: ready, listening or speaking → processing', () => {
    for (const from of ['ready', 'listening', 'speaking'] as const) {
      expect(voiceButtonReducer(state(from, { notice: 'alt' }), { type: 'SEND_TEXT' }), from).toEqual({
        status: 'processing',
        hint: 'processing',
        notice: null,
        caption: '',
      });
    }
    expectIgnoredOutside({ type: 'SEND_TEXT' }, ['ready', 'listening', 'speaking']);
  });

  it('SPEAKING: processing → speaking, hint "… antwortet..."', () => {
    expect(voiceButtonReducer(state('processing', { hint: 'processing' }), { type: 'SPEAKING' })).toEqual({
      status: 'speaking',
      hint: 'answering',
      notice: null,
      caption: '',
    });
    expectIgnoredOutside({ type: 'SPEAKING' }, ['processing']);
  });

  it('DONE: processing or speaking → ready, keeping a playback notice', () => {
    const notice = coachTexts.errors.playback;
    expect(voiceButtonReducer(state('speaking', { hint: 'answering', notice }), { type: 'DONE' })).toEqual({
      status: 'ready',
      hint: 'ready',
      notice,
      caption: '',
    });
    expect(voiceButtonReducer(state('processing', { hint: 'processing' }), { type: 'DONE' })).toMatchObject({
      status: 'ready',
      hint: 'ready',
    });
    expectIgnoredOutside({ type: 'DONE' }, ['processing', 'speaking']);
  });

  it('FAILED: processing or speaking → ready with the message', () => {
    for (const from of ['processing', 'speaking'] as const) {
      expect(voiceButtonReducer(state(from), { type: 'FAILED', message: coachTexts.errors.processing })).toEqual({
        status: 'ready',
        hint: 'ready',
        notice: 'Es gab ein Problem bei der Verarbeitung.',
        caption: '',
      });
    }
    expectIgnoredOutside({ type: 'FAILED', message: 'x' }, ['processing', 'speaking']);
  });

  it('CANCEL: listening, processing or speaking → ready', () => {
    for (const from of ['listening', 'processing', 'speaking'] as const) {
      expect(voiceButtonReducer(state(from, { caption: 'x', notice: 'y' }), { type: 'CANCEL' })).toEqual({
        status: 'ready',
        hint: 'ready',
        notice: null,
        caption: '',
      });
    }
    expectIgnoredOutside({ type: 'CANCEL' }, ['listening', 'processing', 'speaking']);
  });

  it('NOTICE: shows a message in any started state without moving', () => {
    for (const from of ['ready', 'listening', 'processing', 'speaking'] as const) {
      expect(voiceButtonReducer(state(from), { type: 'NOTICE', message: coachTexts.errors.autoplayBlocked })).toEqual({
        ...state(from),
        notice: coachTexts.errors.autoplayBlocked,
      });
    }
    expect(voiceButtonReducer(initialVoiceState, { type: 'NOTICE', message: 'x' })).toBe(initialVoiceState);
  });

  it('a whole spoken exchange walks idle → speaking → ready → listening → processing → speaking → ready', () => {
    const events: VoiceEvent[] = [
      { type: 'OPEN' },
      { type: 'DONE' },
      { type: 'LISTEN' },
      { type: 'INTERIM', text: 'Was hilft' },
      { type: 'TRANSCRIPT', text: 'Was hilft gegen Stress?' },
      { type: 'SPEAKING' },
      { type: 'DONE' },
    ];
    const statuses = events.reduce<{ current: VoiceState; seen: VoiceStatus[] }>(
      ({ current, seen }, event) => {
        const next = voiceButtonReducer(current, event);
        return { current: next, seen: [...seen, next.status] };
      },
      { current: initialVoiceState, seen: [] },
    ).seen;
    expect(statuses).toEqual(['speaking', 'ready', 'listening', 'listening', 'processing', 'speaking', 'ready']);
  });
});
