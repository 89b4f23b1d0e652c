import { PageHeader } from '../../components/ui/PageHeader';
import { Dashboard } from '../../features/admin/Dashboard';
import { RequireAdmin } from '../../features/admin/RequireAdmin';
import { useT } from '../../i18n/language';

export default function AdminDashboardPage() {
  const { t } = useT('admin');
  // The heading stands while the session is checked too, so the page is never without one.
  return (
    <>
      <PageHeader title={t('dashboard.heading')} lead={t('dashboard.lead')} />
      <RequireAdmin>{(session) => <Dashboard session={session} />}</RequireAdmin>
    </>
  );
}
