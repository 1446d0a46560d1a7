import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import LockOutlined from '@mui/icons-material/LockOutlined';
import { formatMedicalDate } from '@healthbook/shared/records/medical-date';
import { useOrganizationContext } from '../../../../lib/organization-context';
import type { DashboardWidgetContext } from '../../../../lib/feature-module';
import { queryClient } from '../../../../lib/query-client';
import { paths } from '../../../../lib/paths';
import { useRecordAccess } from '../../../../lib/record-access';
import { recordSummaryQueryOptions, useRecordSummary } from '../../api/get-record-summary';
import { categoryName, useRecordText } from '../../../../lib/record-text';

/** Dashboard widget: the health records changed last, and the way to all of them. */
export default function RecentRecordsWidget() {
  const { clientId } = useOrganizationContext();
  const { t, locale } = useRecordText();
  const summary = useRecordSummary(null, locale);
  const headingId = useId();
  const recent = summary.data?.recent ?? [];
  // Adding is offered only to whoever may add (the one rule: lib/record-access.ts).
  const { canWrite } = useRecordAccess();
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
        {t('healthRecords:widget.title')}
      </Typography>
      {summary.isPending && <Skeleton variant="rounded" height={96} />}
      {summary.data && recent.length === 0 && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('healthRecords:widget.empty')}
        </Typography>
      )}
      {recent.length > 0 && (
        <List dense disablePadding sx={{ mb: 1.5 }}>
          {recent.map((r) => {
            const date = r.date_part ? formatMedicalDate({ date: r.date, part: r.date_part }, locale, t('records:inThePast')) : '';
            return (
              <li key={r.id}>
                <ListItemButton component={RouterLink} to={paths.recordDetail(clientId, r.category, r.id)} sx={{ borderRadius: 2, px: 1 }}>
                  <ListItemText primary={r.title || t('healthRecords:untitled')} secondary={[categoryName(t, r.category), date].filter(Boolean).join(' · ')} />
                  {r.private && <LockOutlined fontSize="small" titleAccess={t('healthRecords:private')} />}
                </ListItemButton>
              </li>
            );
          })}
        </List>
      )}
      <Button component={RouterLink} to={paths.healthRecords(clientId)} variant="outlined">
        {recent.length || !canWrite ? t('healthRecords:widget.all') : t('healthRecords:widget.addFirst')}
      </Button>
      {summary.data && summary.data.total > 0 && <Chip sx={{ ml: 1 }} size="small" label={t('healthRecords:recordCount', { count: summary.data.total })} />}
    </Paper>
  );
}

/** The records changed last, loaded with the dashboard (lib/dashboard-widgets.ts). */
export const prefetch = ({ language }: DashboardWidgetContext) => queryClient.ensureQueryData(recordSummaryQueryOptions(null, language));
