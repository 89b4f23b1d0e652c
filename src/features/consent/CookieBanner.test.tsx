import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../tests/support/browser/render';
import { CONSENT_STORAGE_KEY, CookieBanner } from './CookieBanner';

const banner = () => screen.queryByRole('region', { name: 'Cookie-Hinweis' });

describe('cookie banner', () => {
  it('appears while no consent is stored', () => {
    renderWithProviders(<CookieBanner />);
    expect(banner()).toBeInTheDocument();
  });

  it('stores "accepted" on Accept and stays hidden on the next visit', async () => {
    const user = userEvent.setup({ delay: null });
    const first = renderWithProviders(<CookieBanner />);
    await user.click(screen.getByRole('button', { name: 'Akzeptieren' }));
    expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toBe('accepted');
    expect(banner()).toBeNull();
    first.unmount();
    renderWithProviders(<CookieBanner />);
    expect(banner()).toBeNull();
  });

  it('hides for this view only with the X', async () => {
    const user = userEvent.setup({ delay: null });
    const first = renderWithProviders(<CookieBanner />);
    await user.click(screen.getByRole('button', { name: 'Hinweis schließen' }));
    expect(banner()).toBeNull();
    expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toBeNull();
    first.unmount();
    renderWithProviders(<CookieBanner />);
    expect(banner()).toBeInTheDocument();
  });

  it('opens the privacy policy in a new tab from Settings', () => {
    renderWithProviders(<CookieBanner />);
    const settings = screen.getByRole('link', { name: /Einstellungen/ });
    expect(settings).toHaveAttribute('href', '/rechtliches/datenschutz#datenerfassung');
    expect(settings).toHaveAttribute('target', '_blank');
    expect(settings).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('speaks English on English pages', () => {
    renderWithProviders(<CookieBanner />, { path: '/company/about' });
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
  });
});
