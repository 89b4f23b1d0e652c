import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isLang, pathForLanguage } from '../../config/routes';
import { activateLanguage } from '../../i18n';
import { useLanguage, useT } from '../../i18n/language';

const labels = { de: 'Deutsch', en: 'English' } as const;

/** Deutsch / English. Moves to the other language's path where the page has one. */
export function LanguageSelect({ className = '' }: { className?: string }) {
  const { t } = useT();
  const { lang, choose } = useLanguage();
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const id = useId();

  return (
    <div className={className}>
      <label htmlFor={id} className="sr-only">
        {t('header.language')}
      </label>
      <select
        id={id}
        value={lang}
        onChange={(event) => {
          const next = event.target.value;
          if (!isLang(next)) return;
          // Fetch the language's words first, so the page switches in one step.
          void activateLanguage(next).then(() => {
            choose(next);
            const target = pathForLanguage(pathname, next);
            if (target !== pathname) void navigate(`${target}${search}${hash}`);
          });
        }}
        className="rounded-full border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-slate-400"
      >
        <option value="de" lang="de">
          {labels.de}
        </option>
        <option value="en" lang="en">
          {labels.en}
        </option>
      </select>
    </div>
  );
}
