import { useEffect } from 'react';
import { useLocation } from '../components/router';
import { Footer } from '../components/layout/Footer';
import { Header } from '../components/layout/Header';
import { CookieBanner } from '../features/consent/CookieBanner';
import { ContactProvider, useContact } from '../features/contact/ContactContext';
import { LanguageProvider, useLanguage, useT } from '../i18n/language';
import { DocumentHead } from './DocumentHead';
import { Page } from './pages';
import { PageErrorBoundary } from './PageErrorBoundary';
import { ScrollToTop } from './ScrollToTop';

function Shell({ pathname }: { pathname: string }) {
  const { t } = useT();
  const { lang } = useLanguage();
  const contact = useContact();
  const openContact = () => contact.open();
  return (
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
          <Page pathname={pathname} />
        </PageErrorBoundary>
      </main>
      <Footer onOpenContact={openContact} />
      <CookieBanner />
    </div>
  );
}

/** The whole app inside a router: layout, providers and the page of the current path. */
export function App() {
  const { pathname } = useLocation();
  // Marks the page as live (hydrated), for the end-to-end tests and for styles that need it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
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
