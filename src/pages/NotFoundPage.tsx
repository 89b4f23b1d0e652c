import { Link } from 'react-router';
import { buttonClass } from '../components/ui/buttonStyles';
import { getHref } from '../config/routes';
import { useLanguage, useT } from '../i18n/language';

export default function NotFoundPage() {
  const { t } = useT();
  const { lang } = useLanguage();
  return (
    <div className="mx-auto max-w-3xl px-4 py-24 text-center">
      <p className="text-7xl font-extrabold text-brand-700">{t('notFound.code')}</p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900">{t('notFound.message')}</h1>
      <Link to={getHref('home', lang)} className={buttonClass('primary', 'mt-8')}>
        {t('notFound.home')}
      </Link>
    </div>
  );
}
