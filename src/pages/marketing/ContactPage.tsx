import { CompanyAddress } from '../../components/ui/CompanyAddress';
import { startTransition, useEffect } from 'react';
import { BookingLink } from '../../components/ui/BookingLink';
import { buttonClass } from '../../components/ui/buttonStyles';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { site } from '../../config/site';
import { useContact } from '../../features/contact/ContactContext';
import { useT } from '../../i18n/language';

const linkClass = 'break-all text-brand-800 underline underline-offset-4 hover:text-brand-900';

/**
 * The contact page shares the site's one contact modal: arriving here opens it, and the page
 * keeps a button to open it again next to the other ways to reach us.
 */
export default function ContactPage() {
  const { t } = useT('contactPage');
  const contact = useContact();
  const { open } = contact;

  // Opened as a transition: the dialog's first render yields to the browser between components
  // instead of running in one piece right after hydration; only its commit and its effects (focus
  // into the form, hiding the page from screen readers, the scroll lock) remain one task.
  useEffect(() => {
    startTransition(() => open());
  }, [open]);

  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <button type="button" className={buttonClass('primary')} onClick={() => contact.open()}>
          {t('openForm')}
        </button>
        <BookingLink variant="secondary" />
      </PageHeader>
      <Section title={t('waysTitle')}>
        <p className="mb-8 max-w-3xl rounded-2xl bg-brand-50 p-5 text-slate-900">
          <span className="font-semibold">{t('responseLabel')}: </span>
          {t('responseText')}
        </p>
        <dl className="grid grid-cols-1 gap-8 sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="font-semibold text-slate-900">{t('emailLabel')}</dt>
            <dd className="mt-1">
              <a className={linkClass} href={`mailto:${site.contactEmail}`}>
                {site.contactEmail}
              </a>
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('phoneLabel')}</dt>
            <dd className="mt-1">
              <a className={linkClass} href={`tel:${site.contactPhone.replace(/\s+/g, '')}`}>
                {site.contactPhone}
              </a>
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('bookingLabel')}</dt>
            <dd className="mt-1 text-slate-700">
              <p>{t('bookingText')}</p>
              <BookingLink variant="secondary" className="mt-3" />
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('addressLabel')}</dt>
            <dd className="mt-1 text-slate-700">
              <CompanyAddress className="" />
            </dd>
          </div>
        </dl>
      </Section>
      <RelatedLinks title={t('related')} ids={['about', 'products', 'pricing']} />
    </>
  );
}
