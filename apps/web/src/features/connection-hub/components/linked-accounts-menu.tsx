import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import { useLinks } from '../api/list-links';
import { useSwitchAccount } from '../api/switch-account';

/**
 * The linked accounts in the avatar menu: one "switch" item each (the app shell puts them in its
 * menu; MUI menus take their items as direct children, hence an array rather than a component).
 */
export function useLinkedAccountMenuItems({ enabled, onChosen, onFailed }: { enabled: boolean; onChosen: () => void; onFailed: (text: string) => void }): ReactNode[] {
  const { t } = useTranslation('connectionHub');
  const navigate = useNavigate();
  const links = useLinks(enabled);
  const switching = useSwitchAccount();
  if (!enabled || !links.data?.length) return [];
  return [
    <Divider key="linked-divider" />,
    <ListSubheader key="linked-title" sx={{ lineHeight: 2.5, bgcolor: 'transparent' }}>
      {t('menu.title')}
    </ListSubheader>,
    ...links.data.map((link) => (
      <MenuItem
        key={`linked-${link.id}`}
        disabled={switching.isPending}
        onClick={() => {
          onChosen();
          switching.mutate(link.id, { onSuccess: (path) => void navigate(path, { replace: true }), onError: () => onFailed(t('switchFailed')) });
        }}
      >
        <ListItemIcon>
          <SwapHoriz fontSize="small" aria-hidden />
        </ListItemIcon>
        <ListItemText primary={t('menu.switchTo', { organization: link.organization.name })} secondary={link.email} slotProps={{ secondary: { noWrap: true } }} />
      </MenuItem>
    )),
  ];
}
