import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isSpeechRecognitionSupported,
  SpeechRecognitionError,
  startRecognition,
  type RecognitionHandlers,
} from './speechRecognition';
import { FakeRecognition, installRecognition, removeRecognition } from '../../tests/support/browser/browserFakes';

function handlers() {
  return {
    onInterim: vi.fn<RecognitionHandlers['onInterim']>(),
    onFinal: vi.fn<RecognitionHandlers['onFinal']>(),
    onError: vi.fn<RecognitionHandlers['onError']>(),
    onEnd: vi.fn<RecognitionHandlers['onEnd']>(),
  };
}

describe('speech recognition', () => {
  beforeEach(installRecognition);
  afterEach(removeRecognition);

  it('finds the constructor at call time, standard or webkit-prefixed', () => {
    removeRecognition();
    expect(isSpeechRecognitionSupported()).toBe(false);
    expect(() => startRecognition(handlers())).toThrow(SpeechRecognitionError);
    window.webkitSpeechRecognition = FakeRecognition;
    expect(isSpeechRecognitionSupported()).toBe(true);
    startRecognition(handlers());
    expect(FakeRecognition.latest().started).toBe(true);
  });

  it('reports "unsupported" when the browser has none', () => {
    removeRecognition();
    try {
      startRecognition(handlers());
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ problem: 'unsupported' });
    }
  });

  it('listens in German for one utterance with interim results', () => {
    startRecognition(handlers());
    const recognition = FakeRecognition.latest();
    expect(recognition).toMatchObject({ lang: 'de-DE', continuous: false, interimResults: true, maxAlternatives: 1, started: true });
  });

  it('shows interim words and sends the final transcript at once, before the end event', () => {
    const on = handlers();
    startRecognition(on);
    const recognition = FakeRecognition.latest();
    recognition.hear(['Wie gehe', false]);
    expect(on.onInterim).toHaveBeenLastCalledWith('Wie gehe');
    expect(on.onFinal).not.toHaveBeenCalled();
    recognition.hear([' Wie gehe ich mit Stress um? ', true]);
    expect(on.onFinal).toHaveBeenCalledWith('Wie gehe ich mit Stress um?');
    recognition.end();
    expect(on.onFinal).toHaveBeenCalledTimes(1);
    expect(on.onEnd).toHaveBeenCalledTimes(1);
  });

  it('ends with an empty transcript when nothing final was heard (stopped by the visitor)', () => {
    const on = handlers();
    const session = startRecognition(on);
    const recognition = FakeRecognition.latest();
    recognition.hear(['hm', false]);
    session.stop();
    expect(recognition.stopped).toBe(true);
    recognition.end();
    expect(on.onFinal).toHaveBeenCalledWith('');
    expect(on.onEnd).toHaveBeenCalledOnce();
  });

  it.each([
    ['not-allowed', 'denied'],
    ['service-not-allowed', 'denied'],
    ['no-speech', 'noSpeech'],
    ['network', 'failed'],
    ['audio-capture', 'failed'],
  ])('maps the error %s to %s and sends no transcript', (code, problem) => {
    const on = handlers();
    startRecognition(on);
    const recognition = FakeRecognition.latest();
    recognition.fail(code);
    recognition.end();
    expect(on.onError).toHaveBeenCalledWith(expect.objectContaining({ problem, code }));
    expect(on.onFinal).not.toHaveBeenCalled();
    expect(on.onEnd).toHaveBeenCalledOnce();
  });

  it('abort drops everything that would still arrive', () => {
    const on = handlers();
    const session = startRecognition(on);
    const recognition = FakeRecognition.latest();
    session.abort();
    expect(recognition.aborted).toBe(true);
    recognition.hear(['zu spät', true]);
    recognition.fail('aborted');
    recognition.end();
    expect(on.onInterim).not.toHaveBeenCalled();
    expect(on.onFinal).not.toHaveBeenCalled();
    expect(on.onError).not.toHaveBeenCalled();
    expect(on.onEnd).not.toHaveBeenCalled();
  });
});
