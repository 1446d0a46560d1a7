import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { isOrganizationFound } from '@healthbook/shared/validation';
import { getOrganization } from '../../../lib/organization-cache';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';

/**
 * What a deactivated organisation's addresses show (its sign-in page and every other): that it
 * is deactivated, that its members' information is kept, and whom to contact. The status is read
 * afresh (not from the branding kept in memory), so a reactivated organisation offers sign-in.
 */
export default function OrganizationDeactivatedPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation();
  const [active, setActive] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    getOrganization(clientId).then(
      (fresh) => live && setActive(isOrganizationFound(fresh) && fresh.active !== false),
      () => live && setActive(false),
    );
    return () => {
      live = false;
    };
  }, [clientId]);

  return (
    <Box component="main" sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: 8, textAlign: 'center' }}>
      <title>{`${t('deactivated.pageTitle')} | ${org.org_name}`}</title>
      <Box sx={{ maxWidth: 560 }}>
        {active ? (
          <>
            <Typography variant="h1" gutterBottom>
              {t('deactivated.activeAgainTitle', { orgName: org.org_name })}
            </Typography>
            <Button component={RouterLink} to={paths.login(clientId)} variant="contained" size="large" sx={{ mt: 2 }}>
              {t('notFound.action')}
            </Button>
          </>
        ) : (
          <>
            <Typography variant="h1" gutterBottom>
              {t('deactivated.title', { orgName: org.org_name })}
            </Typography>
            <Typography sx={{ mb: 2 }}>{t('deactivated.text', { orgName: org.org_name })}</Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              {t('deactivated.kept')}
            </Typography>
            {(org.support_email || org.support_phone) && (
              <Typography>
                {t('deactivated.contact')}{' '}
                {org.support_email && <Link href={`mailto:${org.support_email}`}>{org.support_email}</Link>}
                {org.support_email && org.support_phone && ` · `}
                {org.support_phone && (
                  <Link href={`tel:${org.support_phone.replace(/\s/g, '')}`} sx={{ whiteSpace: 'nowrap' }}>
                    {org.support_phone}
                  </Link>
                )}
              </Typography>
            )}
            <Typography color="text.secondary" sx={{ mt: 3 }}>
              {t('deactivated.emergency', { number: org.emergency_number })}
            </Typography>
          </>
        )}
      </Box>
    </Box>
  );
}
