import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LANGUAGE_STORAGE_KEY, useT } from '../../i18n/language';
import { LocationProbe, renderWithProviders } from '../../testing/render';
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

  it('switches the language in place where a page has no English path', async () => {
    const user = userEvent.setup({ delay: null });
    renderWithProviders(ui, { path: '/rechtliches/impressum' });
    await user.selectOptions(screen.getByRole('combobox'), 'en');
    await waitFor(() => expect(screen.getByTestId('label')).toHaveTextContent('About'));
    expect(screen.getByTestId('location')).toHaveTextContent('/rechtliches/impressum');
  });

  it('applies a remembered choice on pages without a language of their own', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    renderWithProviders(ui, { path: '/produkte/features' });
    expect(screen.getByTestId('label')).toHaveTextContent('About');
  });

  it('lets the path win over a remembered choice', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    renderWithProviders(ui, { path: '/produkte/ai-secretary' });
    expect(screen.getByTestId('label')).toHaveTextContent('Über uns');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('de');
  });
});
