import { Link } from 'react-router';
import { BookingLink } from '../../components/ui/BookingLink';
import { buttonClass } from '../../components/ui/buttonStyles';
import { Card, FeatureCard } from '../../components/ui/Card';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { Section } from '../../components/ui/Section';
import { company } from '../../config/company';
import { getHref } from '../../config/routes';
import { site } from '../../config/site';
import { useLanguage } from '../../i18n/language';
import { useT } from '../../i18n/language';

export default function AboutPage() {
  const { t } = useT('about');
  const { lang } = useLanguage();
  const partners = [
    { name: company.legalName, city: company.city, role: t('joint.company', { name: company.legalName }) },
    { name: company.partner.legalName, city: company.partner.city, role: t('joint.partner', { name: company.partner.legalName }) },
  ];
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <Section title={t('mission.title')}>
        <p className="max-w-3xl text-lg text-slate-700">{t('mission.text')}</p>
      </Section>
      <Section title={t('values.title')}>
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {t('values.items', { returnObjects: true }).map((value) => (
            <li key={value.title}>
              <FeatureCard title={value.title} text={value.text} />
            </li>
          ))}
        </ul>
      </Section>
      <Section title={t('joint.title')}>
        <p className="max-w-3xl text-slate-700">{t('joint.text', { site: site.name })}</p>
        <ul className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-2">
          {partners.map((partner) => (
            <li key={partner.name}>
              <Card className="h-full">
                <h3 className="text-lg font-semibold text-slate-900">{partner.name}</h3>
                <p className="text-sm font-medium text-slate-700">{partner.city}</p>
                <p className="mt-3 text-slate-700">{partner.role}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>
      <Section title={t('contact.title')}>
        <p className="max-w-3xl text-slate-700">{t('contact.text')}</p>
        <Link to={getHref('contact', lang)} className={buttonClass('primary', 'mt-6')}>
          {t('contact.cta')}
        </Link>
      </Section>
      <RelatedLinks title={t('related')} ids={['contact', 'products', 'transparency']} />
    </>
  );
}
