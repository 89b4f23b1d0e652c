import { describe, expect, it } from 'vitest';
import { chatReducer, initialChatState, nextRequest, type ChatEvent, type ChatState } from './chatState';

const run = (events: ChatEvent[], from: ChatState = initialChatState) => events.reduce(chatReducer, from);

describe('chat state', () => {
  it('opens once, with the greeting as the first assistant message', () => {
    const opened = run([{ type: 'OPEN', greeting: 'Hallo!' }]);
    expect(opened.open).toBe(true);
    expect(opened.entries).toEqual([{ id: 'greeting', role: 'assistant', content: 'Hallo!', kind: 'greeting', streaming: false }]);
    expect(chatReducer(opened, { type: 'OPEN', greeting: 'nochmal' })).toBe(opened);
  });

  it('streams a reply into its message and ends it', () => {
    const state = run([
      { type: 'OPEN', greeting: 'Hallo!' },
      { type: 'USER', id: 'u1', text: 'Frage' },
      { type: 'REPLY_START', id: 'r1' },
      { type: 'REPLY_TEXT', id: 'r1', text: 'Ant' },
      { type: 'REPLY_TEXT', id: 'r1', text: 'Antwort.' },
    ]);
    expect(state.entries.at(-1)).toEqual({ id: 'r1', role: 'assistant', content: 'Antwort.', kind: 'reply', streaming: true });
    expect(chatReducer(state, { type: 'REPLY_END', id: 'r1' }).entries.at(-1)).toMatchObject({ streaming: false });
  });

  it('shows a catalogue message in the reply’s place', () => {
    const state = run([
      { type: 'OPEN', greeting: 'Hallo!' },
      { type: 'USER', id: 'u1', text: 'Frage' },
      { type: 'REPLY_START', id: 'r1' },
      { type: 'REPLY_ERROR', id: 'r1', message: 'Tut mir leid' },
    ]);
    expect(state.entries.at(-1)).toEqual({ id: 'r1', role: 'assistant', content: 'Tut mir leid', kind: 'error', streaming: false });
  });

  it('keeps the conversation id and mode from the reply', () => {
    const state = run([{ type: 'META', conversationId: 'c-1', mode: 'offline' }]);
    expect(state).toMatchObject({ conversationId: 'c-1', mode: 'offline' });
    expect(chatReducer(state, { type: 'META', conversationId: null, mode: 'model' })).toMatchObject({
      conversationId: 'c-1',
      mode: 'model',
    });
  });

  it('ends only a counted conversation, and records the rating', () => {
    expect(chatReducer(initialChatState, { type: 'END' })).toBe(initialChatState);
    const ended = run([{ type: 'META', conversationId: 'c-1', mode: 'model' }, { type: 'END' }]);
    expect(ended.ended).toBe(true);
    expect(chatReducer(ended, { type: 'RATING', status: 'sent', value: 4 }).rating).toEqual({ status: 'sent', value: 4 });
  });

  it('starts a new conversation below a divider when the visitor writes after the end', () => {
    const ended = run([
      { type: 'OPEN', greeting: 'Hallo!' },
      { type: 'META', conversationId: 'c-1', mode: 'model' },
      { type: 'END' },
      { type: 'RATING', status: 'sent', value: 5 },
    ]);
    const next = chatReducer(ended, { type: 'USER', id: 'u9', text: 'Neue Frage' });
    expect(next).toMatchObject({ ended: false, conversationId: null, rating: { status: 'none' } });
    expect(next.entries.map((entry) => entry.role)).toEqual(['assistant', 'divider', 'user']);
  });
});

describe('nextRequest', () => {
  it('sends the conversation so far plus the new message, without catalogue messages', () => {
    const state = run([
      { type: 'OPEN', greeting: 'Hallo, ich bin Mia.' },
      { type: 'USER', id: 'u1', text: 'Erste Frage' },
      { type: 'REPLY_START', id: 'r1' },
      { type: 'REPLY_ERROR', id: 'r1', message: 'Tut mir leid' },
      { type: 'USER', id: 'u2', text: 'Zweite Frage' },
      { type: 'REPLY_START', id: 'r2' },
      { type: 'REPLY_TEXT', id: 'r2', text: 'Eine Antwort.' },
      { type: 'REPLY_END', id: 'r2' },
      { type: 'META', conversationId: 'c-1', mode: 'model' },
    ]);
    expect(nextRequest(state, 'Dritte Frage')).toEqual({
      conversationId: 'c-1',
      history: [
        { role: 'assistant', content: 'Hallo, ich bin Mia.' },
        { role: 'user', content: 'Erste Frage' },
        { role: 'user', content: 'Zweite Frage' },
        { role: 'assistant', content: 'Eine Antwort.' },
        { role: 'user', content: 'Dritte Frage' },
      ],
    });
  });

  it('starts afresh after the end and after a divider', () => {
    const ended = run([
      { type: 'OPEN', greeting: 'Hallo!' },
      { type: 'USER', id: 'u1', text: 'Alt' },
      { type: 'META', conversationId: 'c-1', mode: 'model' },
      { type: 'END' },
    ]);
    expect(nextRequest(ended, 'Neu')).toEqual({ conversationId: null, history: [{ role: 'user', content: 'Neu' }] });
    const continued = run([{ type: 'USER', id: 'u2', text: 'Neu' }, { type: 'META', conversationId: 'c-2', mode: 'model' }], ended);
    expect(nextRequest(continued, 'Weiter')).toEqual({
      conversationId: 'c-2',
      history: [
        { role: 'user', content: 'Neu' },
        { role: 'user', content: 'Weiter' },
      ],
    });
  });
});
