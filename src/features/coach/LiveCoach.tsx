import { ChatPanel } from './ChatPanel';
import { useLiveCoach } from './useLiveCoach';
import { VoiceButton } from './VoiceButton';

/**
 * The live coach: the voice button, its status and, from the first click on, the chat panel.
 * Renders on the server as the idle button alone; everything that needs the browser happens in
 * event handlers and effects.
 */
export function LiveCoach() {
  const { voice, chat, click, sendText, endConversation, rate } = useLiveCoach();
  return (
    <div className="mt-10 flex w-full flex-col items-center gap-10">
      <VoiceButton state={voice} onClick={click} />
      {chat.open ? (
        <ChatPanel
          chat={chat}
          canSend={voice.status !== 'processing' && voice.status !== 'idle'}
          onSend={sendText}
          onEnd={endConversation}
          onRate={rate}
        />
      ) : null}
    </div>
  );
}
