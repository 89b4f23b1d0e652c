import { PageHeader } from '../../components/ui/PageHeader';
import { Section } from '../../components/ui/Section';
import { company } from '../../config/company';
import { site } from '../../config/site';
import { useLegalT } from '../../i18n/namespaces/legal';

export default function ImprintPage() {
  const { t } = useLegalT();
  return (
    <>
      <PageHeader title={t('imprint.heading')} lead={t('imprint.lead')} />
      <Section>
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">{t('imprint.example')}</p>
        <dl className="mt-8 grid gap-6 sm:grid-cols-2">
          <div>
            <dt className="font-semibold text-slate-900">{t('imprint.provider')}</dt>
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
            <dt className="font-semibold text-slate-900">{t('imprint.managingDirector')}</dt>
            <dd className="mt-1 text-slate-700">{company.managingDirector}</dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('imprint.register')}</dt>
            <dd className="mt-1 text-slate-700">
              {company.registerCourt}, {company.registerNumber}
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('imprint.vatId')}</dt>
            <dd className="mt-1 text-slate-700">{company.vatId}</dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">{t('imprint.contact')}</dt>
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
