import { CompanyAddress } from '../../components/ui/CompanyAddress';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { company } from '../../config/company';
import { useT } from '../../i18n/language';
import { LegalContactFacts, LegalDocument, LegalFacts } from './LegalSections';

export default function ImprintPage() {
  const { t } = useT('imprint');
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')} />
      <LegalDocument
        note={t('example')}
        chapters={[
          {
            id: 'anbieter',
            title: t('provider'),
            content: (
              <>
                <CompanyAddress />
                <LegalFacts
                  facts={[
                    { label: t('managingDirector'), value: company.managingDirector },
                    {
                      label: t('register'),
                      value: t('registerText', { court: company.registerCourt, number: company.registerNumber }),
                    },
                    { label: t('vatId'), value: company.vatId },
                  ]}
                />
              </>
            ),
          },
          {
            id: 'kontakt',
            title: t('contact'),
            content: <LegalContactFacts emailLabel={t('email')} phoneLabel={t('phone')} />,
          },
          {
            id: 'verantwortlich',
            title: t('responsible'),
            content: <CompanyAddress person={company.managingDirector} />,
          },
          {
            id: 'streitschlichtung',
            title: t('odr.title'),
            content: <p className="leading-7 text-slate-700">{t('odr.text')}</p>,
          },
          {
            id: 'verbraucherstreitbeilegung',
            title: t('consumer.title'),
            content: <p className="leading-7 text-slate-700">{t('consumer.text')}</p>,
          },
        ]}
      />
      <RelatedLinks title={t('related')} ids={['privacy', 'transparency']} />
    </>
  );
}
