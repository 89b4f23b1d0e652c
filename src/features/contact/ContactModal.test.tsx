import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { renderWithProviders } from '../../../tests/support/browser/render';
import ContactModal from './ContactModal';

function setup(path = '/', product: string | null = 'AI Hotlines') {
  const openMail = vi.fn<(url: string) => void>();
  const onClose = vi.fn();
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<ContactModal open product={product} onClose={onClose} openMail={openMail} />, { path });
  return { openMail, onClose, user };
}

async function fillValid(user: ReturnType<typeof userEvent.setup>, lang: 'de' | 'en') {
  const l =
    lang === 'de'
      ? { salutation: 'Anrede', mrs: 'Frau', title: 'Titel', name: 'Name', phone: 'Telefon', email: 'E-Mail', message: 'Nachricht' }
      : { salutation: 'Salutation', mrs: 'Mrs', title: 'Title', name: 'Name', phone: 'Phone', email: 'Email', message: 'Message' };
  await user.selectOptions(screen.getByLabelText(new RegExp(`^${l.salutation}`)), l.mrs);
  await user.type(screen.getByLabelText(new RegExp(`^${l.title}`)), 'Dr.');
  await user.type(screen.getByLabelText(new RegExp(`^${l.name}`)), 'Erika Muster');
  await user.type(screen.getByLabelText(new RegExp(`^${l.phone}`)), '+49 30 123');
  await user.type(screen.getByLabelText(new RegExp(`^${l.email}`)), 'erika@example.com');
  await user.type(screen.getByLabelText(new RegExp(`^${l.message}`)), 'Bitte rufen Sie mich an.{enter}Danke');
}

const mailParts = (url: string) => {
  const parsed = new URL(url);
  return { to: decodeURIComponent(parsed.pathname), params: parsed.searchParams };
};

describe('contact modal', () => {
  it('marks required fields and offers the German salutations with a placeholder', () => {
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Kontakt aufnehmen' });
    const salutation = within(dialog).getByLabelText(/^Anrede/);
    expect(within(salutation).getAllByRole('option').map((o) => o.textContent)).toEqual(['Bitte wählen', 'Herr', 'Frau']);
    for (const label of [/^Anrede/, /^Name/, /^Telefon/, /^E-Mail/, /^Nachricht/]) {
      expect(within(dialog).getByLabelText(label)).toBeRequired();
    }
    expect(within(dialog).getByLabelText(/^Titel/)).not.toBeRequired();
    expect(within(dialog).getByLabelText(/^Nachricht/)).toHaveAttribute('rows', '4');
    expect(within(dialog).getByText(/Mit dem Absenden erklären Sie sich damit einverstanden/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
  });

  it('offers Mr and Mrs in English', () => {
    setup('/products/ai-hotlines');
    const salutation = screen.getByLabelText(/^Salutation/);
    expect(within(salutation).getAllByRole('option').map((o) => o.textContent)).toEqual(['Please choose', 'Mr', 'Mrs']);
  });

  it('shows every required-field message and focuses the first invalid field', async () => {
    const { user, openMail, onClose } = setup();
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    for (const message of [
      'Bitte wählen Sie eine Anrede.',
      'Bitte geben Sie Ihren Namen ein.',
      'Bitte geben Sie Ihre Telefonnummer ein.',
      'Bitte geben Sie Ihre E-Mail-Adresse ein.',
      'Bitte geben Sie eine Nachricht ein.',
    ]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/^Anrede/)).toHaveFocus();
    expect(screen.getByLabelText(/^Anrede/)).toHaveAttribute('aria-invalid', 'true');
    expect(openMail).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('rejects a malformed e-mail address', async () => {
    const { user, openMail } = setup();
    await fillValid(user, 'de');
    const email = screen.getByLabelText(/^E-Mail/);
    await user.clear(email);
    await user.type(email, 'erika@example');
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    expect(screen.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeInTheDocument();
    expect(email).toHaveFocus();
    expect(openMail).not.toHaveBeenCalled();
  });

  it('clears a field message as soon as the field is corrected', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    await user.type(screen.getByLabelText(/^Name/), 'E');
    expect(screen.queryByText('Bitte geben Sie Ihren Namen ein.')).toBeNull();
    expect(screen.getByText('Bitte geben Sie Ihre Telefonnummer ein.')).toBeInTheDocument();
  });

  it('opens a German e-mail draft with subject and all fields, then closes', async () => {
    const { user, openMail, onClose } = setup('/produkte/ai-hotlines', 'AI Hotlines');
    await fillValid(user, 'de');
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    expect(openMail).toHaveBeenCalledTimes(1);
    const { to, params } = mailParts(openMail.mock.calls[0]?.[0] ?? '');
    expect(to).toBe('kontakt@example.com');
    expect(params.get('subject')).toBe('Kontaktformular - AI Hotlines');
    expect(params.get('body')).toBe(
      'Anrede: Frau\r\nTitel: Dr.\r\nName: Erika Muster\r\nTelefon: +49 30 123\r\nE-Mail: erika@example.com\r\n\r\nNachricht:\r\nBitte rufen Sie mich an.\r\nDanke',
    );
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('writes the English draft with English labels and the general subject', async () => {
    const { user, openMail } = setup('/company/contact', null);
    await fillValid(user, 'en');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    const { params } = mailParts(openMail.mock.calls[0]?.[0] ?? '');
    expect(params.get('subject')).toBe('Kontaktformular - General enquiry');
    expect(params.get('body')).toMatch(/^Salutation: Mrs\r\nTitle: Dr\.\r\nName: Erika Muster\r\nPhone: \+49 30 123\r\nEmail: erika@example\.com\r\n\r\nMessage:\r\n/);
  });

  it('cannot be made to add recipients or headers', async () => {
    const { user, openMail } = setup();
    await fillValid(user, 'de');
    const name = screen.getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'a&cc=x@evil.example');
    await user.type(screen.getByLabelText(/^Nachricht/), '{enter}&bcc=y@evil.example');
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    const url = openMail.mock.calls[0]?.[0] ?? '';
    const { params } = mailParts(url);
    expect([...params.keys()]).toEqual(['subject', 'body']);
    expect(params.get('body')).toContain('Name: a&cc=x@evil.example');
    expect(params.get('body')).toContain('&bcc=y@evil.example');
    expect(url).not.toMatch(/[\r\n]|&cc=|&bcc=/);
  });

  it('closes with the close button and with Escape', async () => {
    const { user, onClose } = setup();
    await user.click(screen.getByRole('button', { name: 'Schließen' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
  });
});
