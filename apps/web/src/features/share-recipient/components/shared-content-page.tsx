import { useCallback, useEffect, useId, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Download from '@mui/icons-material/Download';
import InsertDriveFileOutlined from '@mui/icons-material/InsertDriveFileOutlined';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import Print from '@mui/icons-material/Print';
import Visibility from '@mui/icons-material/VisibilityOutlined';
import type { SharedContent } from '@healthbook/shared/contracts/sharing';
import { formatIsoDate } from '@healthbook/shared/records/format';
import { DelayedLoader } from '../../../components/delayed-loader';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useSharedContent } from '../api/get-shared-content';
import { downloadSharedFile, downloadSharedPdf } from '../api/shared-files';
import { formatMoment, formatSize } from '../format';
import { contentFailureTarget } from '../share-errors';
import { shareSession, type ShareEntry } from '../share-session';
import { SharedInsurance } from './shared-insurance';
import { SharedFilePreview, canPreview, type SharedFile } from './shared-file-preview';
import { SharedRecordCard } from './shared-record-card';

/** On paper: the page itself, without the frame's header and footer or the buttons. */
const printStyles = (
  <GlobalStyles
    styles={{
      '@media print': {
        // The page's own header carries the organisation's logo on paper.
        '.hb-header, .hb-footer, .hb-skip, [data-print="hide"]': { display: 'none !important' },
      },
    }}
  />
);

/**
 * What was shared (sharedrecord, shared-documents), live and read-only, for a verified
 * recipient: the patient, until when, each category's records or the documents, their files,
 * and the whole as a PDF. A session that is over goes back to the check; a share that is over,
 * to its page.
 */
export default function SharedContentPage() {
  const { clientId } = useOrganizationContext();
  const [entry] = useState(() => shareSession.load());
  const [session] = useState(() => shareSession.session());
  if (!entry) return <Navigate to={paths.shareExpired(clientId)} replace />;
  if (!session) return <Navigate to={paths.shareVerification(clientId, entry.kind, entry.method)} replace />;
  return <Content entry={entry} session={session} clientId={clientId} />;
}

function Content({ entry, session, clientId }: { entry: ShareEntry; session: string; clientId: string }) {
  const { t, i18n } = useTranslation('shareRecipient');
  const language = i18n.resolvedLanguage ?? 'en';
  const navigate = useNavigate();
  const content = useSharedContent(entry.uid, session, language);
  const [actionError, setActionError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState<number | 'pdf' | null>(null);
  const [preview, setPreview] = useState<SharedFile | null>(null);

  /** Leaves for the check (session over) or the ended page; answers whether it did. */
  const leave = useCallback(
    (error: unknown): boolean => {
      const target = contentFailureTarget(error, clientId, entry);
      if (!target) return false;
      if (target.verifyAgain) shareSession.dropSession();
      void navigate(target.to, { replace: true });
      return true;
    },
    [clientId, entry, navigate],
  );

  useEffect(() => {
    if (content.error) leave(content.error);
  }, [content.error, leave]);

  const onPreviewFailure = useCallback((error: unknown) => void leave(error), [leave]);

  const run = async (what: number | 'pdf', action: () => Promise<void>) => {
    setActionError(null);
    setDownloading(what);
    try {
      await action();
    } catch (error) {
      if (!leave(error)) setActionError(t(what === 'pdf' ? 'content.pdfFailed' : 'content.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };
  const downloadFile = (file: { id: number; file_name: string }) => void run(file.id, () => downloadSharedFile(session, file.id, file.file_name));

  if (content.isPending) return <DelayedLoader label={t('content.loading')} />;
  if (content.isError) {
    // Leaving for the check or an ended page (see leave).
    if (contentFailureTarget(content.error, clientId, entry)) return <DelayedLoader label={t('content.loading')} />;
    return (
      <Box sx={{ flex: 1, px: 2, py: { xs: 4, md: 8 }, maxWidth: 640, mx: 'auto', width: '100%' }}>
        <title>{t('content.pageTitle')}</title>
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('content.failed')}
        </Alert>
        <Button variant="contained" onClick={() => void content.refetch()}>
          {t('content.retry')}
        </Button>
      </Box>
    );
  }

  const data = content.data;
  const fullName = `${data.patient.first_name} ${data.patient.last_name}`.trim();
  const documents = data.kind === 'documents';
  const insurance = data.insurance;
  return (
    <Box sx={{ flex: 1, px: { xs: 2, sm: 3 }, py: { xs: 3, md: 5 }, maxWidth: 1000, mx: 'auto', width: '100%' }}>
      <title>{`${t(documents ? 'content.titleDocuments' : 'content.title', { name: fullName })} | ${data.organization.name}`}</title>
      {printStyles}
      <Header content={data} fullName={fullName} language={language}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} data-print="hide" sx={{ mt: 3 }}>
          {!documents && (
            <Button variant="contained" startIcon={<PictureAsPdfOutlined />} disabled={downloading === 'pdf'} onClick={() => void run('pdf', () => downloadSharedPdf(session))}>
              {downloading === 'pdf' ? t('content.pdfPreparing') : t('content.pdf')}
            </Button>
          )}
          <Button variant="outlined" startIcon={<Print />} onClick={() => window.print()}>
            {t('content.print')}
          </Button>
        </Stack>
      </Header>

      {actionError && (
        <Alert severity="error" role="alert" sx={{ mb: 3 }} onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}

      <Alert severity="info" sx={{ mb: 4 }} data-print="hide">
        {t(documents ? 'content.readOnlyDocuments' : 'content.readOnly', { name: data.patient.first_name })}
      </Alert>

      {documents ? (
        <DocumentList
          documents={data.documents}
          language={language}
          downloading={downloading}
          onView={setPreview}
          onDownload={downloadFile}
        />
      ) : data.sections.length === 0 && insurance.length === 0 ? (
        <Typography color="text.secondary">{t('content.nothing')}</Typography>
      ) : (
        <Stack spacing={5}>
          {data.sections.map((section) => (
            <Section key={section.category} section={section} downloading={typeof downloading === 'number' ? downloading : null} onDownload={downloadFile} />
          ))}
          {insurance.length > 0 && <SharedInsurance cards={insurance} language={language} />}
        </Stack>
      )}

      <SharedFilePreview
        file={preview}
        session={session}
        onClose={() => setPreview(null)}
        onDownload={(file) => downloadFile(file)}
        onFailure={onPreviewFailure}
      />
    </Box>
  );
}

/** Whose record, who sees it and until when. */
function Header({ content, fullName, language, children }: { content: SharedContent; fullName: string; language: string; children: React.ReactNode }) {
  const { t } = useTranslation('shareRecipient');
  const documents = content.kind === 'documents';
  const rows: Array<[string, string]> = [
    ...(content.patient.dob ? ([[t('content.dob'), formatIsoDate(content.patient.dob, language)]] as Array<[string, string]>) : []),
    [t('content.asOf'), formatMoment(content.generated_at, language)],
  ];
  return (
    <Paper variant="outlined" component="header" sx={{ borderRadius: 3, p: { xs: 2.5, sm: 4 }, mb: 3 }}>
      <Stack direction="row" useFlexGap spacing={1.5} sx={{ alignItems: 'center', mb: 1.5 }}>
        {/* On screen the frame's header shows the logo; on paper, this one. */}
        {content.organization.logo_url && (
          <Box component="img" src={content.organization.logo_url} alt="" sx={{ display: 'none', height: 28, maxWidth: 140, objectFit: 'contain', '@media print': { display: 'block' } }} />
        )}
        <Typography variant="overline" component="p" color="text.secondary" sx={{ lineHeight: 1.4 }}>
          {t('content.sharedThrough', { org: content.organization.name })}
        </Typography>
      </Stack>
      <Typography variant="h1" sx={{ mb: 0.5, overflowWrap: 'anywhere' }}>
        {t(documents ? 'content.titleDocuments' : 'content.title', { name: fullName })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('content.sharedLine', { recipient: content.recipient_name, date: formatMoment(content.expires_at, language) })}
      </Typography>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 3, rowGap: { xs: 0.25, sm: 0.75 } }}>
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {children}
    </Paper>
  );
}

function Section({ section, downloading, onDownload }: { section: SharedContent['sections'][number]; downloading: number | null; onDownload(file: { id: number; file_name: string }): void }) {
  const { t } = useTranslation('shareRecipient');
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h2" sx={{ mb: 0.5 }}>
        {section.name}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('content.recordCount', { count: section.records.length })}
      </Typography>
      {section.records.length === 0 ? (
        <Typography color="text.secondary">{t('content.emptySection')}</Typography>
      ) : (
        <Stack spacing={2}>
          {section.records.map((record) => (
            <SharedRecordCard key={record.id} record={record} downloading={downloading} onDownload={onDownload} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

function DocumentList({
  documents,
  language,
  downloading,
  onView,
  onDownload,
}: {
  documents: SharedContent['documents'];
  language: string;
  downloading: number | 'pdf' | null;
  onView(file: SharedFile): void;
  onDownload(file: { id: number; file_name: string }): void;
}) {
  const { t } = useTranslation('shareRecipient');
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h2" sx={{ mb: 2 }}>
        {t('content.documents', { count: documents.length })}
      </Typography>
      {documents.length === 0 ? (
        <Typography color="text.secondary">{t('content.noDocuments')}</Typography>
      ) : (
        <Paper variant="outlined" sx={{ borderRadius: 3 }}>
          <List disablePadding>
            {documents.map((doc, index) => (
              <ListItem key={doc.id} divider={index < documents.length - 1} sx={{ py: 2, px: { xs: 2, sm: 3 }, gap: 2, flexWrap: 'wrap' }}>
                <InsertDriveFileOutlined color="action" aria-hidden />
                <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{doc.file_name}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {`${formatSize(doc.size, language)} · ${t('content.added', { date: formatMoment(doc.created_at, language) })}`}
                  </Typography>
                </Box>
                <Stack direction="row" spacing={1} data-print="hide" sx={{ ml: { xs: 5, sm: 0 } }}>
                  {canPreview(doc) && (
                    <Button variant="outlined" size="small" startIcon={<Visibility />} onClick={() => onView(doc)} aria-label={t('content.viewFile', { name: doc.file_name })}>
                      {t('content.view')}
                    </Button>
                  )}
                  <Button variant="outlined" size="small" startIcon={<Download />} disabled={downloading === doc.id} onClick={() => onDownload(doc)} aria-label={t('content.downloadFile', { name: doc.file_name })}>
                    {t('content.download')}
                  </Button>
                </Stack>
              </ListItem>
            ))}
          </List>
        </Paper>
      )}
    </Box>
  );
}
