import { emptyContact, validateContact } from './contactForm';

const valid = {
  ...emptyContact,
  salutation: 'mrs' as const,
  name: 'Erika Muster',
  phone: '+49 30 1234',
  email: 'erika@example.com',
  message: 'Bitte um Rückruf',
};

describe('validateContact', () => {
  it('accepts a complete form with an empty academic title', () => {
    expect(validateContact(valid)).toEqual({});
  });

  it('requires every field but the academic title', () => {
    expect(validateContact(emptyContact)).toEqual({
      salutation: 'salutation',
      name: 'name',
      phone: 'phone',
      email: 'email',
      message: 'message',
    });
  });

  it('treats whitespace as empty', () => {
    expect(validateContact({ ...valid, name: '   ', message: '\n\t' })).toEqual({
      name: 'name',
      message: 'message',
    });
  });

  it.each(['erika', 'erika@', 'erika@example', 'a b@example.com'])('rejects the address %s', (email) => {
    expect(validateContact({ ...valid, email })).toEqual({ email: 'emailFormat' });
  });

  it('sets no length limit', () => {
    expect(validateContact({ ...valid, message: 'x'.repeat(100_000) })).toEqual({});
  });
});
