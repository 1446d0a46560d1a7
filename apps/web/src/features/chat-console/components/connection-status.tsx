import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Circle from '@mui/icons-material/Circle';
import { CHAT_CLOSE } from '@healthbook/shared/chat';
import type { ConnectionState } from '../hooks/use-chat-console';

const DOT = { open: 'success.main', connecting: 'warning.main', reconnecting: 'warning.main', idle: 'text.disabled', closed: 'error.main' } as const;

/**
 * The socket's state, announced politely when it changes (connected, reconnecting…). The colour
 * is only the dot's: the words carry the meaning.
 */
export function ConnectionStatus({ connection }: { connection: ConnectionState }) {
  const { t } = useTranslation('chatConsole');
  return (
    <Box role="status" aria-live="polite">
      <Chip
        variant="outlined"
        icon={<Circle aria-hidden sx={{ '&&': { color: DOT[connection.status] }, fontSize: 12 }} />}
        label={`${t('connection.label')}: ${t(`connection.${connection.status}`)}`}
      />
    </Box>
  );
}

/** After a close for good: why, and a way to connect again. */
export function ConnectionClosed({ connection, onReconnect }: { connection: ConnectionState; onReconnect: () => void }) {
  const { t } = useTranslation('chatConsole');
  if (connection.status !== 'closed') return null;
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onReconnect}>
          {t('connection.reconnect')}
        </Button>
      }
      sx={{ mb: 3 }}
    >
      {connection.closeCode === CHAT_CLOSE.forbidden ? t('connection.forbidden') : t('connection.closedWhy')}
    </Alert>
  );
}
