import { useEffect, useState, useSyncExternalStore } from 'react';
import { browserPorts } from './session/browserPorts';
import { createCoachSession, initialSnapshot, type CoachSession } from './session/coachSession';
import { markTimings } from './session/timingMarks';

/**
 * The live coach for a component: one conversation (session/coachSession.ts) per mounted coach,
 * its state read with useSyncExternalStore, its timing moments marked for the voice benchmark. The
 * session does all the work; leaving the page (the component unmounts) stops its sound and gives
 * the microphone back.
 */
export function useLiveCoach() {
  const [session] = useState<CoachSession>(() => createCoachSession(browserPorts()));
  useEffect(() => {
    const stopMarking = session.on(markTimings);
    const detach = session.attach();
    return () => {
      detach();
      stopMarking();
    };
  }, [session]);
  const { voice, chat, handsFree } = useSyncExternalStore(session.subscribe, session.getSnapshot, () => initialSnapshot);
  return {
    voice,
    chat,
    handsFree,
    press: session.press,
    click: session.click,
    sendText: session.sendText,
    endConversation: session.endConversation,
    rate: session.rate,
    setHandsFree: session.setHandsFree,
  };
}
