import { render, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { ContactProvider } from '../../../src/features/contact/ContactContext';
import { LanguageProvider } from '../../../src/i18n/language';

function Providers({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <LanguageProvider pathname={pathname}>
      <ContactProvider>{children}</ContactProvider>
    </LanguageProvider>
  );
}

/** Renders UI as the app does: React Router at a path, the language of that path, contact modal. */
export function renderWithProviders(ui: ReactElement, { path = '/', ...options }: { path?: string } & RenderOptions = {}) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Providers>{ui}</Providers>
    </MemoryRouter>,
    options,
  );
}

/** Shows the current path, so a test can see where a link or a switch went. */
export function LocationProbe() {
  const { pathname } = useLocation();
  return <output data-testid="location">{pathname}</output>;
}
