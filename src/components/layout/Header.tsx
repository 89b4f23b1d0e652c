import { useId, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { getHref, type RouteId } from '../../config/routes';
import { site } from '../../config/site';
import { useLanguage, useT } from '../../i18n/language';
import { buttonClass } from '../ui/buttonStyles';
import { ExternalLink } from '../ui/ExternalLink';
import { LanguageSelect } from './LanguageSelect';
import { LogoMark } from './Logo';

const navItems = [
  { id: 'contactCenter', label: 'header.contactCenter' },
  { id: 'hotlines', label: 'header.hotlines' },
  { id: 'secretary', label: 'header.secretary' },
  { id: 'about', label: 'header.about' },
] as const satisfies readonly { id: RouteId; label: string }[];

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-full px-3 py-2 text-sm font-medium transition-colors hover:bg-slate-100 ${
    isActive ? 'text-brand-800 underline decoration-2 underline-offset-8' : 'text-slate-800'
  }`;

export function Header({ onOpenContact }: { onOpenContact: () => void }) {
  const { t } = useT();
  const { lang } = useLanguage();
  const { pathname } = useLocation();
  // The menu belongs to the page it was opened on: moving to another page closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  const menuId = useId();

  const links = navItems.map((item) => (
    <li key={item.id}>
      <NavLink to={getHref(item.id, lang)} className={navLinkClass}>
        {t(item.label)}
      </NavLink>
    </li>
  ));

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3 sm:px-6 lg:px-8">
        <Link
          to={getHref('home', lang)}
          // As tall as the menu button beside it on small screens (h-11): a first paint made
          // before the button is parsed already has the header's final height, so the logo
          // does not move down when the button arrives (a layout shift).
          className="flex min-h-11 shrink-0 items-center gap-2 rounded-lg text-lg font-bold text-slate-900 lg:min-h-0"
          aria-label={t('header.homeLink', { site: site.name })}
        >
          <LogoMark />
          <span>{site.name}</span>
        </Link>

        <nav aria-label={t('header.mainNav')} className="hidden lg:block">
          <ul className="flex items-center gap-1">{links}</ul>
        </nav>

        <div className="hidden items-center gap-2 lg:flex">
          <ExternalLink href={site.bookingUrl} className={buttonClass('ghost')}>
            {t('header.contactLink')}
          </ExternalLink>
          <LanguageSelect />
          <button type="button" className={buttonClass('primary')} onClick={onOpenContact}>
            {t('header.contactButton')}
          </button>
        </div>

        <button
          type="button"
          className="inline-flex h-11 w-11 items-center justify-center rounded-full text-slate-900 hover:bg-slate-100 lg:hidden"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span className="sr-only">{menuOpen ? t('header.closeMenu') : t('header.openMenu')}</span>
          <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true" focusable="false">
            {menuOpen ? (
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            ) : (
              <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            )}
          </svg>
        </button>
      </div>

      <div id={menuId} hidden={!menuOpen} className="border-t border-slate-200 bg-white lg:hidden">
        <nav aria-label={t('header.mainNav')} className="mx-auto max-w-7xl px-4 py-4 sm:px-6">
          <ul className="flex flex-col gap-1">{links}</ul>
          <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
            <ExternalLink href={site.bookingUrl} className={buttonClass('secondary')}>
              {t('header.contactLink')}
            </ExternalLink>
            <button
              type="button"
              className={buttonClass('primary')}
              onClick={() => {
                setMenuOpen(false);
                onOpenContact();
              }}
            >
              {t('header.contactButton')}
            </button>
            <LanguageSelect />
          </div>
        </nav>
      </div>
    </header>
  );
}
