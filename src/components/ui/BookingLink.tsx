import { site } from '../../config/site';
import { useT } from '../../i18n/language';
import { buttonClass, type ButtonVariant } from './buttonStyles';
import { ExternalLink } from './ExternalLink';

/** The main call to action: book a callback with the external scheduling service. */
export function BookingLink({ variant = 'primary', className = '' }: { variant?: ButtonVariant; className?: string }) {
  const { t } = useT();
  return (
    <ExternalLink href={site.bookingUrl} className={buttonClass(variant, className)}>
      {t('booking.cta')}
    </ExternalLink>
  );
}
