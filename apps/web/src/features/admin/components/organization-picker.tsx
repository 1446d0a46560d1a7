import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useSession } from '../../../lib/auth';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useOrganizations } from '../api/get-organizations';

/** The organisation an administration page acts on: an organisation admin's own; a super admin chooses (this hook and its picker). */
export function useChosenOrganization() {
  const { org } = useOrganizationContext();
  const { user } = useSession();
  const superadmin = user?.is_superadmin === true;
  const organizations = useOrganizations(superadmin);
  const [organizationId, setOrganizationId] = useState(org.org);
  const chosen = organizations.data?.find((o) => o.org === organizationId) ?? org;
  return { superadmin, organizations: organizations.data ?? [org], chosen, setOrganizationId };
}

export function OrganizationPicker({ state }: { state: ReturnType<typeof useChosenOrganization> }) {
  const { t } = useTranslation('admin');
  if (!state.superadmin) return null;
  return (
    <TextField select label={t('organization')} value={state.chosen.org} onChange={(e) => state.setOrganizationId(Number(e.target.value))} sx={{ mb: 3, minWidth: 260 }}>
      {state.organizations.map((o) => (
        <MenuItem key={o.org} value={o.org}>
          {o.org_name}
        </MenuItem>
      ))}
    </TextField>
  );
}
