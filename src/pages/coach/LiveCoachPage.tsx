import { persona } from '../../config/persona';
import { LiveCoach } from '../../features/coach/LiveCoach';
import { CookieBanner } from '../../features/consent/CookieBanner';
import { coachTexts } from '../../features/coach/texts';
import { useLanguage, useT } from '../../i18n/language';

/**
 * The live test. The coach speaks German on both paths; on the English one the site around it is
 * English and a line says that the conversation is in German. Once the chat is open, the cookie
 * notice (if still undecided) moves from over the screen's bottom into the page, below the chat.
 */
export default function LiveCoachPage() {
  const { t } = useT();
  const { lang } = useLanguage();
  return (
    <div className="bg-gradient-to-b from-brand-50 to-white" lang="de">
      <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-12 text-center sm:px-6 sm:py-16">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl lg:text-5xl">{coachTexts.heading}</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-700">{coachTexts.instructions}</p>
        {lang !== 'de' && (
          <p lang={lang} className="mt-2 max-w-2xl text-base text-slate-600">
            {t('coachPage.languageNote', { name: persona.name })}
          </p>
        )}
        {/* Once the chat is open, the cookie notice sits below it, not over its controls. */}
        <LiveCoach afterChat={<CookieBanner inline />} />
      </div>
    </div>
  );
}
