import { useEffect } from 'react';
import { Outlet, Route, Routes, useLocation } from 'react-router';
import { Footer } from '../components/layout/Footer';
import { Header } from '../components/layout/Header';
import { matchPath, routePaths, routes } from '../config/routes';
import { CookieBanner } from '../features/consent/CookieBanner';
import { CookieNoticePlacement } from '../features/consent/placement';
import { ContactProvider, useContact } from '../features/contact/ContactContext';
import { LanguageProvider, useLanguage, useT } from '../i18n/language';
import NotFoundPage from '../pages/NotFoundPage';
import { DocumentHead } from './DocumentHead';
import { Page } from './pages';
import { PageErrorBoundary } from './PageErrorBoundary';
import { ScrollToTop } from './ScrollToTop';

function Shell({ pathname }: { pathname: string }) {
  const { t } = useT();
  const { lang } = useLanguage();
  const contact = useContact();
  const openContact = () => contact.open();
  // The admin area's controls fill a phone's screen: there the notice sits in the flow, after them.
  // A page may put one in its flow too (the live coach's open chat); the floating one then waits.
  const match = matchPath(pathname);
  const admin = match !== null && routes[match.id].kind === 'admin';
  return (
    <CookieNoticePlacement>
      <div className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-full bg-white px-4 py-2 font-semibold text-brand-800 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          {t('skipToContent')}
        </a>
        <Header onOpenContact={openContact} />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          <PageErrorBoundary key={pathname} lang={lang}>
            <Outlet />
          </PageErrorBoundary>
        </main>
        {admin && <CookieBanner inline />}
        <Footer onOpenContact={openContact} />
        {!admin && <CookieBanner />}
      </div>
    </CookieNoticePlacement>
  );
}

/** What every page shares: the language of its path, the contact modal, head tags and the layout. */
function Layout() {
  const { pathname } = useLocation();
  return (
    <LanguageProvider pathname={pathname}>
      <ContactProvider>
        <DocumentHead />
        <ScrollToTop />
        <Shell pathname={pathname} />
      </ContactProvider>
    </LanguageProvider>
  );
}

/**
 * Every route of the site, public pages, the live coach and the admin area, from the route
 * registry (src/config/routes.ts), inside the router the caller provides: a `StaticRouter` when
 * prerendering (src/app/prerender.tsx), a `BrowserRouter` in the browser (src/app/boot.tsx).
 */
export function App() {
  // Marks the page as live (hydrated), for the end-to-end tests and for styles that need it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <Routes>
      <Route element={<Layout />}>
        {routePaths.map(({ path, id }) => (
          <Route key={path} path={path} caseSensitive element={<Page id={id} />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
