import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useDemoT } from '../../i18n/namespaces/demo';

export default function DemoPage() {
  const { t } = useDemoT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['liveCoach', 'features', 'pricing', 'products']} />
    </>
  );
}
