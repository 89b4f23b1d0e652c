/**
 * Builds the mailto: link of the contact form. Every part is percent-encoded, so no field can add
 * a header (cc, bcc, subject) or end the body early; line breaks are CRLF as RFC 6068 asks.
 */
export interface MailtoLine {
  label: string;
  value: string;
}

export interface ContactMail {
  to: string;
  product: string;
  lines: readonly MailtoLine[];
  message: { label: string; value: string };
}

const singleLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();
const crlf = (value: string) => value.replace(/\r\n|\r|\n/g, '\r\n').trim();

export function contactSubject(product: string): string {
  return `Kontaktformular - ${singleLine(product)}`;
}

export function contactBody(mail: ContactMail): string {
  const header = mail.lines.map((line) => `${line.label}: ${singleLine(line.value)}`);
  return [...header, '', `${mail.message.label}:`, crlf(mail.message.value)].join('\r\n');
}

export function buildContactMailto(mail: ContactMail): string {
  const to = encodeURIComponent(mail.to.trim()).replace(/%40/g, '@');
  const subject = encodeURIComponent(contactSubject(mail.product));
  const body = encodeURIComponent(contactBody(mail));
  return `mailto:${to}?subject=${subject}&body=${body}`;
}
