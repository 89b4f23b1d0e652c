import type { ReactNode } from 'react';
import { ChatPanel } from './ChatPanel';
import { HandsFreeSwitch } from './HandsFreeSwitch';
import { useLiveCoach } from './useLiveCoach';
import { VoiceButton } from './VoiceButton';

/**
 * The live coach: the voice button, its status, the hands-free switch and, from the first click
 * on, the chat panel, followed by `afterChat` (the page's cookie notice, so that it lies below the
 * chat instead of over its controls). Renders on the server as the idle button alone (hands-free
 * off); everything that needs the browser happens in event handlers and effects.
 */
export function LiveCoach({ afterChat }: { afterChat?: ReactNode }) {
  const { voice, chat, press, click, sendText, endConversation, rate, handsFree, setHandsFree } = useLiveCoach();
  return (
    <div className="mt-10 flex w-full flex-col items-center gap-10">
      <div className="flex w-full flex-col items-center gap-6">
        <VoiceButton state={voice} onPress={press} onClick={click} />
        <HandsFreeSwitch on={handsFree} onChange={setHandsFree} />
      </div>
      {chat.open ? (
        <>
          <ChatPanel
            chat={chat}
            canSend={voice.status !== 'processing' && voice.status !== 'idle'}
            onSend={sendText}
            onEnd={endConversation}
            onRate={rate}
          />
          {afterChat}
        </>
      ) : null}
    </div>
  );
}
