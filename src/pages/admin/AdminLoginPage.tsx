import { PageHeader } from '../../components/ui/PageHeader';
import { LoginForm } from '../../features/admin/LoginForm';
import { useT } from '../../i18n/language';

export default function AdminLoginPage() {
  const { t } = useT('admin');
  return (
    <>
      <PageHeader title={t('login.heading')} lead={t('login.lead')} />
      <LoginForm />
    </>
  );
}
