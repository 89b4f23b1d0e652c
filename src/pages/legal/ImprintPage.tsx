import { PageHeader } from '../../components/ui/PageHeader';
import { Section } from '../../components/ui/Section';
import { company } from '../../config/company';
import { site } from '../../config/site';
import { useImprintT } from '../../i18n/namespaces/imprint';

export default function ImprintPage() {
  const { t } = useImprintT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')} />
      <Section>
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">{t('example')}</p>
        <dl className="mt-8 grid gap-6 sm:grid-cols-2">
          <div>
            <dt className="font-semibold text-slate-900">{t('provider')}</dt>
            <dd className="mt-1 text-slate-700">
              {company.legalName}
              <br />
              {company.street}
              <br />
              {company.postalCode} {company.city}
              <br />
              {company.country}
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('managingDirector')}</dt>
            <dd className="mt-1 text-slate-700">{company.managingDirector}</dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('register')}</dt>
            <dd className="mt-1 text-slate-700">
              {company.registerCourt}, {company.registerNumber}
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('vatId')}</dt>
            <dd className="mt-1 text-slate-700">{company.vatId}</dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('contact')}</dt>
            <dd className="mt-1 text-slate-700">
              <a className="text-brand-800 underline" href={`mailto:${site.contactEmail}`}>
                {site.contactEmail}
              </a>
              <br />
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
