import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import TipsAndUpdates from '@mui/icons-material/TipsAndUpdates';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { HELP_SEARCH_MAX } from '@healthbook/shared/help';
import { DelayedLoader } from '../../../components/delayed-loader';
import { paths } from '../../../lib/paths';
import { useAssistant } from '../api/ask-assistant';

export interface AssistantWidgetProps {
  org: OrganizationDetail;
  clientId: string;
  /**
   * Where the shell puts the button, in its own space and never over the page: at the foot of
   * the permanent drawer, beside the page (desktop), or in the app bar (phone).
   */
  desktop: boolean;
  /** The help page is active: "write to support" links to its form. */
  helpActive: boolean;
  /** Live Help is active: nothing found offers the live chat. */
  liveChatActive: boolean;
}

/** The panel on a desktop: beside the drawer (200 px), left of the live chat's dialog and of the scroll-to-top button. */
const SIDE_MD = 200 + 16;

/**
 * The assistant (feature `assistant`): a button of the shell on signed-in pages (the drawer's
 * foot on a desktop, the app bar on a phone: it never covers the page) that opens a small,
 * non-modal panel (a labelled dialog; focus moves in, Esc closes and focus returns to the
 * button). The user types a question and gets the best help articles and product pages; when
 * nothing matches, the contact form and (when active) the live chat. It searches only: it
 * never gives medical advice, and says so, with the emergency number.
 */
export default function AssistantWidget({ org, clientId, desktop, helpActive, liveChatActive }: AssistantWidgetProps) {
  const { t, i18n } = useTranslation('help');
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [question, setQuestion] = useState('');
  const answer = useAssistant(question, i18n.resolvedLanguage ?? 'en');
  const titleId = useId();
  const panelId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQuestion(text.trim());
  };
  const data = answer.data;

  return (
    <>
      {desktop ? (
        <Button
          ref={buttonRef}
          variant="contained"
          fullWidth
          startIcon={<TipsAndUpdates aria-hidden />}
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={() => (open ? close() : setOpen(true))}
          sx={{ borderRadius: 6, justifyContent: 'flex-start', px: 2 }}
        >
          {t('assistant.button')}
        </Button>
      ) : (
        <IconButton
          ref={buttonRef}
          color="primary"
          aria-label={t('assistant.button')}
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={() => (open ? close() : setOpen(true))}
        >
          <TipsAndUpdates />
        </IconButton>
      )}
      {open && (
        <Paper
          id={panelId}
          role="dialog"
          aria-labelledby={titleId}
          elevation={8}
          onKeyDown={onKeyDown}
          sx={{
            position: 'fixed',
            // Under the app bar (55 px) on a phone, where its button is; beside the drawer's foot on a desktop.
            left: desktop ? SIDE_MD : 8,
            right: desktop ? 'auto' : 8,
            ...(desktop ? { bottom: 16 } : { top: 55 + 8 }),
            width: desktop ? 400 : 'auto',
            maxHeight: desktop ? 'calc(100dvh - 76px - 32px)' : 'calc(100dvh - 55px - 16px)',
            display: 'flex',
            flexDirection: 'column',
            overflow: 'hidden',
            borderRadius: 3,
            zIndex: 'speedDial',
          }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, pl: 2, pr: 0.5, py: 0.5, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
            <Typography id={titleId} variant="h2" sx={{ flex: 1, fontSize: '1.05rem', fontWeight: 700, color: 'inherit' }}>
              {t('assistant.title')}
            </Typography>
            <IconButton color="inherit" aria-label={t('assistant.close')} onClick={close}>
              <CloseIcon />
            </IconButton>
          </Box>
          <Box sx={{ p: 2, overflowY: 'auto' }}>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {t('assistant.intro', { orgName: org.org_name })}
            </Typography>
            <Alert severity="warning" role="note" sx={{ mb: 2, py: 0 }}>
              {t('assistant.notAdvice', { number: org.emergency_number })}
            </Alert>
            <Box component="form" role="search" onSubmit={submit} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 2 }}>
              <TextField
                inputRef={inputRef}
                size="small"
                fullWidth
                label={t('assistant.label')}
                placeholder={t('assistant.placeholder')}
                value={text}
                onChange={(e) => setText(e.target.value)}
                slotProps={{ htmlInput: { maxLength: HELP_SEARCH_MAX } }}
                // The floating label of the focused field in the text colour: it reads on the panel whatever the organisation's colour.
                sx={{ '& .MuiInputLabel-root.Mui-focused': { color: 'text.primary' } }}
              />
              <Button type="submit" variant="contained" disabled={!text.trim()} sx={{ flexShrink: 0, minHeight: 40 }}>
                {t('assistant.ask')}
              </Button>
            </Box>
            <Box aria-live="polite">
              {question && answer.isFetching && !data && <DelayedLoader label={t('assistant.searching')} />}
              {answer.isError && <Alert severity="error">{t('assistant.failed')}</Alert>}
              {data && data.matched && (
                <>
                  {data.articles.length > 0 && (
                    <>
                      <Typography variant="h3" sx={{ fontSize: '0.95rem', fontWeight: 700, mb: 1 }}>
                        {t('assistant.articles')}
                      </Typography>
                      <Stack component="ul" spacing={1.25} sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}>
                        {data.articles.map((a) => (
                          <li key={a.slug}>
                            <Link component={RouterLink} to={paths.helpArticle(clientId, a.slug)} onClick={() => setOpen(false)} sx={{ fontWeight: 600 }}>
                              {a.title}
                            </Link>
                            <Typography variant="body2" color="text.secondary">
                              {a.summary}
                            </Typography>
                          </li>
                        ))}
                      </Stack>
                    </>
                  )}
                  {data.pages.length > 0 && (
                    <>
                      <Typography variant="h3" sx={{ fontSize: '0.95rem', fontWeight: 700, mb: 1 }}>
                        {t('assistant.pages')}
                      </Typography>
                      <Stack component="ul" spacing={1.25} sx={{ listStyle: 'none', p: 0, m: 0 }}>
                        {data.pages.map((p) => (
                          <li key={p.key}>
                            <Link component={RouterLink} to={paths.feature(clientId, p.route)} onClick={() => setOpen(false)} sx={{ fontWeight: 600 }}>
                              {p.name}
                            </Link>
                            <Typography variant="body2" color="text.secondary">
                              {p.description}
                            </Typography>
                          </li>
                        ))}
                      </Stack>
                    </>
                  )}
                </>
              )}
              {data && !data.matched && (
                <Box>
                  <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{t('assistant.noMatch')}</Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
                    {helpActive || liveChatActive ? t('assistant.noMatchText') : t('assistant.noMatchNothing')}
                  </Typography>
                  <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
                    {helpActive && org.support_email && (
                      <Button component={RouterLink} to={paths.helpContact(clientId)} variant="outlined" onClick={() => setOpen(false)}>
                        {t('assistant.contact')}
                      </Button>
                    )}
                    {liveChatActive && (
                      <Button component={RouterLink} to={paths.peerCoaching(clientId)} variant="outlined" onClick={() => setOpen(false)}>
                        {t('assistant.chat')}
                      </Button>
                    )}
                  </Stack>
                </Box>
              )}
            </Box>
          </Box>
        </Paper>
      )}
    </>
  );
}
