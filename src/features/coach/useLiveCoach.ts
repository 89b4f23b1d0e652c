import { useEffect, useState, useSyncExternalStore } from 'react';
import { browserPorts } from './session/browserPorts';
import { createCoachSession, initialSnapshot, type CoachSession } from './session/coachSession';

/**
 * The live coach for a component: one conversation (session/coachSession.ts) per mounted coach,
 * its state read with useSyncExternalStore. The session does all the work; leaving the page (the
 * component unmounts) stops its sound and gives the microphone back.
 */
export function useLiveCoach() {
  const [session] = useState<CoachSession>(() => createCoachSession(browserPorts()));
  useEffect(() => session.attach(), [session]);
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
