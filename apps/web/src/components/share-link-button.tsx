import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button, { type ButtonProps } from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Share from '@mui/icons-material/Share';
import { useHubFeatures } from '../lib/hub-features';
import { useOrganizationContext } from '../lib/organization-context';
import { paths, type ShareNewQuery } from '../lib/paths';
import { useRecordAccess } from '../lib/record-access';

export interface ShareLinkButtonProps {
  /** What the new share starts with chosen. */
  query?: ShareNewQuery;
  /** What is shared, for an icon-only button's name ("Share ECG.pdf"); without it the name is "Share". */
  name?: string;
  /** Only the icon (a row of a list), named by `label`. */
  iconOnly?: boolean;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}

/**
 * "Share": a link to the new-share page with something chosen (a category, a record, a
 * document), shown while the member's organisation has sharing on.
 */
export function ShareLinkButton({ query = {}, name, iconOnly = false, variant = 'outlined', size }: ShareLinkButtonProps) {
  const { org, clientId } = useOrganizationContext();
  // The sharing texts load beside the page, without holding it up.
  const { t, i18n, ready } = useTranslation('sharing', { useSuspense: false });
  const features = useHubFeatures(org.org, i18n.resolvedLanguage ?? 'en');
  // Sharing the viewed record makes something new of it: not with read-only access.
  const { writes } = useRecordAccess();
  const canWrite = writes.shares;
  if (!ready || !canWrite || features.status('share-record') !== 'active') return null;
  const to = paths.shareNew(clientId, query);
  const text = name ? t('shareNamed', { name }) : t('shareButton');
  if (iconOnly)
    return (
      <Tooltip title={text}>
        <IconButton component={RouterLink} to={to} aria-label={text} size={size ?? 'medium'}>
          <Share fontSize={size === 'small' ? 'small' : 'medium'} />
        </IconButton>
      </Tooltip>
    );
  return (
    <Button component={RouterLink} to={to} variant={variant} size={size ?? 'medium'} startIcon={<Share />} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
      {text}
    </Button>
  );
}
