import { buildContactMailto, contactBody, contactSubject, type ContactMail } from './mailto';

const mail = (overrides: Partial<ContactMail> = {}): ContactMail => ({
  to: 'kontakt@example.com',
  product: 'AI Hotlines',
  lines: [
    { label: 'Anrede', value: 'Frau' },
    { label: 'Titel', value: 'Dr.' },
    { label: 'Name', value: 'Erika Muster' },
  ],
  message: { label: 'Nachricht', value: 'Hallo\nWelt' },
  ...overrides,
});

function parse(url: string) {
  expect(url.startsWith('mailto:')).toBe(true);
  const parsed = new URL(url);
  return { to: decodeURIComponent(parsed.pathname), params: parsed.searchParams };
}

describe('contact mailto', () => {
  it('has the fixed subject prefix and the product', () => {
    expect(contactSubject('AI Secretary')).toBe('Kontaktformular - AI Secretary');
    const { to, params } = parse(buildContactMailto(mail()));
    expect(to).toBe('kontakt@example.com');
    expect(params.get('subject')).toBe('Kontaktformular - AI Hotlines');
  });

  it('lists the fields in order with CRLF line breaks', () => {
    expect(contactBody(mail())).toBe(
      'Anrede: Frau\r\nTitel: Dr.\r\nName: Erika Muster\r\n\r\nNachricht:\r\nHallo\r\nWelt',
    );
  });

  it('keeps hostile values inside the body', () => {
    const url = buildContactMailto(
      mail({
        lines: [{ label: 'Name', value: 'a&cc=x@evil.example' }],
        message: { label: 'Nachricht', value: 'x\r\nbcc: y@evil.example&subject=pwned' },
      }),
    );
    const { params } = parse(url);
    expect([...params.keys()]).toEqual(['subject', 'body']);
    expect(params.get('body')).toContain('Name: a&cc=x@evil.example');
    expect(params.get('body')).toContain('bcc: y@evil.example&subject=pwned');
    expect(url).not.toMatch(/&cc=|&bcc=|\n|\r/);
  });

  it('folds line breaks in single-line fields so they cannot start a new line', () => {
    const body = contactBody(mail({ lines: [{ label: 'Name', value: 'Eve\r\nTelefon: 0' }] }));
    expect(body.split('\r\n')[0]).toBe('Name: Eve Telefon: 0');
  });
});
