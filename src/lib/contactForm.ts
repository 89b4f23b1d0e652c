/** The contact form payload (never sent to a server; it becomes an e-mail draft). */
export interface ContactValues {
  salutation: '' | 'mr' | 'mrs';
  academicTitle: string;
  name: string;
  phone: string;
  email: string;
  message: string;
}

export type ContactField = keyof ContactValues;
export type ContactError = 'salutation' | 'name' | 'phone' | 'email' | 'emailFormat' | 'message';
export type ContactErrors = Partial<Record<ContactField, ContactError>>;

export const emptyContact: ContactValues = {
  salutation: '',
  academicTitle: '',
  name: '',
  phone: '',
  email: '',
  message: '',
};

/** The order in which fields appear, so the first invalid one can take focus. */
export const contactFieldOrder: readonly ContactField[] = [
  'salutation',
  'academicTitle',
  'name',
  'phone',
  'email',
  'message',
];

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Required: salutation, name, phone, email (and well-formed), message. No length limits. */
export function validateContact(values: ContactValues): ContactErrors {
  const errors: ContactErrors = {};
  if (values.salutation === '') errors.salutation = 'salutation';
  if (values.name.trim() === '') errors.name = 'name';
  if (values.phone.trim() === '') errors.phone = 'phone';
  if (values.email.trim() === '') errors.email = 'email';
  else if (!emailPattern.test(values.email.trim())) errors.email = 'emailFormat';
  if (values.message.trim() === '') errors.message = 'message';
  return errors;
}
