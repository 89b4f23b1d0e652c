import { useEffect } from 'react';
import { BookingLink } from '../../components/ui/BookingLink';
import { buttonClass } from '../../components/ui/buttonStyles';
import { PageHeader } from '../../components/ui/PageHeader';
import { Section } from '../../components/ui/Section';
import { site } from '../../config/site';
import { useContact } from '../../features/contact/ContactContext';
import { useContactPageT } from '../../i18n/namespaces/contactPage';

/**
 * The contact page shares the site's one contact modal: arriving here opens it, and the page
 * keeps a button to open it again next to the other ways to reach us.
 */
export default function ContactPage() {
  const { t } = useContactPageT();
  const contact = useContact();
  const { open } = contact;

  useEffect(() => {
    open();
  }, [open]);

  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <button type="button" className={buttonClass('primary')} onClick={() => contact.open()}>
          {t('openForm')}
        </button>
        <BookingLink variant="secondary" />
      </PageHeader>
      <Section>
        <dl className="grid gap-6 sm:grid-cols-2">
          <div>
            <dt className="font-semibold text-slate-900">{t('emailLabel')}</dt>
            <dd className="mt-1">
              <a className="text-brand-800 underline" href={`mailto:${site.contactEmail}`}>
                {site.contactEmail}
              </a>
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('phoneLabel')}</dt>
            <dd className="mt-1">
              <a className="text-brand-800 underline" href={`tel:${site.contactPhone.replace(/\s+/g, '')}`}>
                {site.contactPhone}
              </a>
            </dd>
          </div>
        </dl>
      </Section>
    </>
  );
}
