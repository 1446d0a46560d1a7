import { Outlet, useNavigation, ScrollRestoration } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NavigationProgress } from '../../components/delayed-loader';

/** Around every route: the delayed navigation progress bar and scroll restoration. */
export function RootLayout() {
  const navigation = useNavigation();
  const { t } = useTranslation();
  return (
    <>
      <NavigationProgress active={navigation.state === 'loading'} label={t('app.loading')} />
      <ScrollRestoration />
      <Outlet />
    </>
  );
}
