import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../tests/support/browser/render';
import { ReachProvider } from './ReachContext';
import { ReachSelector } from './ReachSelector';
import { formatMultiplier } from './reachOptions';

const renderSelector = (path = '/produkte/auftritt-waehlen') =>
  renderWithProviders(
    <ReachProvider>
      <ReachSelector />
    </ReachProvider>,
    { path },
  );

const radio = (name: string) => screen.getByRole('radio', { name });

describe('reach selector', () => {
  it('offers National, International and Global in one group, National chosen', () => {
    renderSelector();
    expect(screen.getByRole('group', { name: 'Wie weit soll Ihr KI-Coaching reichen?' })).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(3);
    expect(radio('National')).toBeChecked();
    expect(radio('National')).toHaveAccessibleDescription(/Deutschland, Österreich, Schweiz.*Faktor ×1$/);
    expect(radio('International')).toHaveAccessibleDescription(/Europa.*Faktor ×1,5$/);
    expect(radio('Global')).toHaveAccessibleDescription(/Weltweit.*Faktor ×2$/);
    expect(screen.getByTestId('reach-summary')).toHaveTextContent('Ihre Auswahl: National (Deutschland, Österreich, Schweiz), Faktor ×1');
  });

  it('changes the choice on click and says which one is chosen', async () => {
    const user = userEvent.setup({ delay: null });
    renderSelector();
    await user.click(radio('Global'));
    expect(radio('Global')).toBeChecked();
    expect(radio('National')).not.toBeChecked();
    expect(screen.getByTestId('reach-summary')).toHaveTextContent('Ihre Auswahl: Global (Weltweit), Faktor ×2');
  });

  it('speaks English on an English page', async () => {
    const user = userEvent.setup({ delay: null });
    renderSelector('/products/mental-coaches');
    await user.click(radio('International'));
    expect(screen.getByTestId('reach-summary')).toHaveTextContent('Your choice: International (Europe), factor ×1.5');
  });
});

describe('formatMultiplier', () => {
  it('shows whole factors without decimals and the others with one', () => {
    expect(formatMultiplier(1, 'de')).toBe('1');
    expect(formatMultiplier(1.5, 'de')).toBe('1,5');
    expect(formatMultiplier(1.5, 'en')).toBe('1.5');
    expect(formatMultiplier(2, 'en')).toBe('2');
  });
});
