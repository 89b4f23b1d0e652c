import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LANGUAGE_STORAGE_KEY, useT } from '../../i18n/language';
import { LocationProbe, renderWithProviders } from '../../../tests/support/browser/render';
import { LanguageSelect } from './LanguageSelect';

function AboutLabel() {
  const { t } = useT();
  return <p data-testid="label">{t('header.about')}</p>;
}

const ui = (
  <>
    <LanguageSelect />
    <AboutLabel />
    <LocationProbe />
  </>
);

describe('language switch', () => {
  it('renders German by default and offers Deutsch and English', () => {
    renderWithProviders(ui);
    const select = screen.getByRole('combobox', { name: 'Sprache' });
    expect(select).toHaveValue('de');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Deutsch', 'English']);
    expect(screen.getByTestId('label')).toHaveTextContent('Über uns');
  });

  it('moves to the English path of a page that has one and remembers the choice', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(ui, { path: '/produkte/ai-hotlines' });
    await user.selectOptions(screen.getByRole('combobox'), 'en');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/products/ai-hotlines'));
    // <html lang> and the stored choice follow in effects after the switch has rendered.
    await waitFor(() => expect(document.documentElement.lang).toBe('en'));
    expect(screen.getByTestId('label')).toHaveTextContent('About');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
  });

  it('moves back to the German path', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(ui, { path: '/company/about' });
    expect(screen.getByTestId('label')).toHaveTextContent('About');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/unternehmen/ueber-uns'));
    await waitFor(() => expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('de'));
  });

  it('moves from the English home page to the German one', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(ui, { path: '/en' });
    expect(screen.getByTestId('label')).toHaveTextContent('About');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(screen.getByTestId('label')).toHaveTextContent('Über uns');
  });

  it('switches the admin area, which has one path, in place', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(ui, { path: '/admin/dashboard-login' });
    await user.selectOptions(screen.getByRole('combobox'), 'en');
    await waitFor(() => expect(screen.getByTestId('label')).toHaveTextContent('About'));
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/dashboard-login');
  });

  it('shows the admin area in the remembered language', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    renderWithProviders(ui, { path: '/admin/master-dashboard' });
    expect(screen.getByTestId('label')).toHaveTextContent('About');
  });

  it('lets the path win over a remembered choice', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    renderWithProviders(ui, { path: '/rechtliches/impressum' });
    expect(screen.getByTestId('label')).toHaveTextContent('Über uns');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('de');
  });
});
