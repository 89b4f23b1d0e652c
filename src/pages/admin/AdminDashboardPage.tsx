import { PageHeader } from '../../components/ui/PageHeader';
import { Dashboard } from '../../features/admin/Dashboard';
import { RequireAdmin } from '../../features/admin/RequireAdmin';
import { useT } from '../../i18n/language';
import { AdminRouter } from './AdminRouter';

export default function AdminDashboardPage() {
  const { t } = useT('admin');
  // The heading stands while the session is checked too, so the page is never without one.
  return (
    <AdminRouter>
      <PageHeader title={t('dashboard.heading')} lead={t('dashboard.lead')} />
      <RequireAdmin>{(session) => <Dashboard session={session} />}</RequireAdmin>
    </AdminRouter>
  );
}
