import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { renderWithProviders } from '../../../tests/support/browser/render';
import { CONSENT_STORAGE_KEY, CookieBanner } from './CookieBanner';
import { CookieNoticePlacement } from './placement';

const banner = () => screen.queryByRole('region', { name: 'Cookie-Hinweis' });
const banners = () => screen.queryAllByRole('region', { name: 'Cookie-Hinweis' });

/** The app's shell with its floating notice, and a page with one in its flow until "Chat schließen". */
function ShellWithInlineNotice() {
  const [chatOpen, setChatOpen] = useState(true);
  return (
    <CookieNoticePlacement>
      {chatOpen && <CookieBanner inline />}
      <button type="button" onClick={() => setChatOpen(false)}>
        Chat schließen
      </button>
      <CookieBanner />
    </CookieNoticePlacement>
  );
}

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

  it('gives way to a notice in the page, and comes back when that one goes', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ShellWithInlineNotice />);
    expect(banners()).toHaveLength(1);
    expect(banner()).not.toHaveClass('fixed');
    await user.click(screen.getByRole('button', { name: 'Chat schließen' }));
    expect(banners()).toHaveLength(1);
    expect(banner()).toHaveClass('fixed');
  });

  it('the X hides the notice wherever it sits, for the rest of the page view', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(<ShellWithInlineNotice />);
    await user.click(screen.getByRole('button', { name: 'Hinweis schließen' }));
    expect(banners()).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Chat schließen' }));
    expect(banners()).toHaveLength(0);
    expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toBeNull();
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
