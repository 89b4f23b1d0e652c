/**
 * Imprint data. EXAMPLE VALUES: an operator replaces every field before going live.
 * The site is a joint project of two companies (see the About page).
 */
export const company = {
  legalName: 'Muster Voice Solutions GmbH',
  street: 'Musterstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'Deutschland',
  managingDirector: 'Max Mustermann',
  registerCourt: 'Amtsgericht Berlin-Charlottenburg',
  registerNumber: 'HRB 000000',
  vatId: 'DE000000000',
  partner: {
    legalName: 'Beispiel Coaching GmbH',
    city: 'München',
  },
} as const;
