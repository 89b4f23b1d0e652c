import { useEffect, useMemo, useRef } from 'react';
import { playbackLevel } from '../../services/audioOutput';
import type { VoiceActivityWatch } from '../../services/voiceActivity';

export interface VoiceDetectionHandlers {
  onSpeechMaybe(): void;
  onSpeechDropped(): void;
  onSpeechStart(): void;
  onSpeechEnd(): void;
  /** The microphone could not be opened (denied, missing). */
  onProblem(error: unknown): void;
}

export interface VoiceDetection {
  /** Milliseconds since the visitor last spoke, or null while nothing listens. */
  silenceMs(): number | null;
  /** Whether speech was heard since the last `resetHeard()`. */
  heardSpeech(): boolean;
  resetHeard(): void;
}

/**
 * While `active`, the microphone is open and the voice activity detector listens (with the coach's
 * playback level as its echo guard); when `active` turns false, or the component goes away (the
 * visitor leaves the page), the detector stops and the microphone is released, so no recording
 * indicator lingers.
 */
export function useVoiceDetection(active: boolean, handlers: VoiceDetectionHandlers): VoiceDetection {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  const watch = useRef<VoiceActivityWatch | null>(null);
  const heard = useRef(false);

  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    let releaseMicrophone: (() => void) | null = null;
    // Loaded when first needed: the coach page's first download stays small.
    Promise.all([import('../../services/microphone'), import('../../services/voiceActivity')])
      .then(([microphone, voiceActivity]) => {
        if (cancelled) return null;
        releaseMicrophone = microphone.releaseMicrophone;
        return microphone.openMicrophone().then((stream) =>
          voiceActivity.watchVoiceActivity(stream, {
          onSpeechMaybe: () => latest.current.onSpeechMaybe(),
          onSpeechDropped: () => latest.current.onSpeechDropped(),
          onSpeechStart: () => {
            heard.current = true;
            latest.current.onSpeechStart();
          },
          onSpeechEnd: () => latest.current.onSpeechEnd(),
          playbackLevel,
        }),
        );
      })
      .then(
        (started) => {
          if (!started) return;
          if (cancelled) started.stop();
          else watch.current = started;
        },
        (error: unknown) => {
          if (!cancelled) latest.current.onProblem(error);
        },
      );
    const release = () => {
      cancelled = true;
      watch.current?.stop();
      watch.current = null;
      releaseMicrophone?.();
    };
    // A tab that is closed or sent to the back-forward cache gives the microphone back too.
    window.addEventListener('pagehide', release);
    return () => {
      window.removeEventListener('pagehide', release);
      release();
    };
  }, [active]);

  return useMemo(
    () => ({
      silenceMs: () => watch.current?.silenceMs() ?? null,
      heardSpeech: () => heard.current,
      resetHeard: () => {
        heard.current = false;
        watch.current?.reset();
      },
    }),
    [],
  );
}
