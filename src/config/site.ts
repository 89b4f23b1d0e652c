import { env } from './env';

/** Site-wide values an operator changes: brand, public URL, booking link, contact details. */
export const site = {
  name: 'Voxa AI',
  url: env.VITE_SITE_URL.replace(/\/+$/, ''),
  bookingUrl: env.VITE_BOOKING_URL,
  contactEmail: env.VITE_CONTACT_EMAIL,
  contactPhone: env.VITE_CONTACT_PHONE,
} as const;
