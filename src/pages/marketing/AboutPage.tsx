import { BookingLink } from '../../components/ui/BookingLink';
import { PageHeader } from '../../components/ui/PageHeader';
import { RelatedLinks } from '../../components/ui/RelatedLinks';
import { useAboutT } from '../../i18n/namespaces/about';

export default function AboutPage() {
  const { t } = useAboutT();
  return (
    <>
      <PageHeader title={t('heading')} lead={t('lead')}>
        <BookingLink />
      </PageHeader>
      <RelatedLinks title={t('related')} ids={['contact', 'products', 'transparency']} />
    </>
  );
}
