import type { ReactNode } from 'react';
import { HumanCheck } from '../../components/ui/HumanCheck';
import { useT } from '../../i18n/language';
import { loadTurnstile, turnstileSiteKey } from '../../services/turnstile';
import { failCaptcha, provideCaptchaToken } from '../../services/visitorSession';
import { ChatPanel } from './ChatPanel';
import { HandsFreeSwitch } from './HandsFreeSwitch';
import { useLiveCoach } from './useLiveCoach';
import { VoiceButton } from './VoiceButton';

/**
 * The live coach: the voice button, its status, the hands-free switch and, from the first click
 * on, the chat panel, followed by `afterChat` (the page's cookie notice, so that it lies below the
 * chat instead of over its controls). Renders on the server as the idle button alone (hands-free
 * off); everything that needs the browser happens in event handlers and effects. Where the
 * operator set a Turnstile site key, starting the coach also shows the human check, whose token
 * signs the visitor in (../../services/visitorSession.ts); the coach's calls wait for it. `loadCheck`
 * brings Turnstile's widget (a test hands in a fake).
 */
export function LiveCoach({ afterChat, loadCheck = loadTurnstile }: { afterChat?: ReactNode; loadCheck?: typeof loadTurnstile }) {
  const { voice, chat, press, click, sendText, endConversation, rate, handsFree, setHandsFree } = useLiveCoach();
  const { t } = useT('common');
  const siteKey = turnstileSiteKey();
  return (
    <div className="mt-10 flex w-full flex-col items-center gap-10">
      <div className="flex w-full flex-col items-center gap-6">
        <VoiceButton state={voice} onPress={press} onClick={click} />
        <HandsFreeSwitch on={handsFree} onChange={setHandsFree} />
        {siteKey !== null && chat.open ? (
          <HumanCheck label={t('humanCheck.coach')} siteKey={siteKey} load={loadCheck} onToken={provideCaptchaToken} onError={failCaptcha} />
        ) : null}
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
