import { useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import CreateNewFolder from '@mui/icons-material/CreateNewFolder';
import Folder from '@mui/icons-material/Folder';
import FolderOpen from '@mui/icons-material/FolderOpen';
import Image from '@mui/icons-material/Image';
import MoreVert from '@mui/icons-material/MoreVert';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
// Neither PDF nor image: a C-CDA kept by an import (XML), offered as a download.
import Description from '@mui/icons-material/Description';
import Search from '@mui/icons-material/Search';
import UploadFile from '@mui/icons-material/UploadFile';
import type { DocumentDto, FolderDto } from '@healthbook/shared/contracts/documents';
import { CATEGORIES } from '@healthbook/shared/records/categories';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { FilePreviewDialog } from '../../../components/file-preview-dialog';
import { HubPage } from '../../../components/hub-page';
import { ShareLinkButton } from '../../../components/share-link-button';
import { downloadFile, formatBytes } from '../../../lib/files';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useSearchQuery } from '../../../lib/search-query';
import { categoryName, recordTitle } from '../../../lib/record-text';
import {
  useCreateFolder,
  useDeleteDocument,
  useDeleteFolder,
  useDocuments,
  useFolders,
  useRenameFolder,
  useUpdateDocument,
  useUploadDocument,
  type DocumentListParams,
} from '../api/documents';
import { useRecordsToAttach } from '../api/records-to-attach';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';

const ACCEPTED = 'application/pdf,image/png,image/jpeg,image/gif,image/webp,image/heic,.heic,.pdf';
/** The client-held flag of the spec: documents attached to records stand out (kept on the device). */
const HIGHLIGHT_KEY = 'highlightAttachments';

type Notice = { severity: 'success' | 'error'; text: string } | null;

/** /health-vault — the Document Center: folders, upload with progress, preview, download, move, attach to a record. */
export default function DocumentCenterPage() {
  const { canWrite, readOnly } = useRecordAccess();
  const { t } = useTranslation(['documents', 'records', 'healthRecords']);
  const [params, setParams] = useSearchParams();
  const view = params.get('folder') ?? 'all';
  const [search, setSearch] = useSearchQuery();
  const [highlight, setHighlight] = useState(() => localStorage.getItem(HIGHLIGHT_KEY) !== 'false');
  const [notice, setNotice] = useState<Notice>(null);
  const folders = useFolders();
  const listParams: DocumentListParams = {
    ...(view === 'attached' ? { attached: 'true' as const } : view !== 'all' ? { folder: view } : {}),
    ...(params.get('q') ? { search: params.get('q')! } : {}),
  };
  const documents = useDocuments(listParams);
  const currentFolder = folders.data?.find((f) => String(f.id) === view) ?? null;

  const choose = (folder: string) => {
    const next = new URLSearchParams(params);
    if (folder === 'all') next.delete('folder');
    else next.set('folder', folder);
    setParams(next);
  };

  return (
    <HubPage pageTitle={t('documents:pageTitle')} intro={t('documents:intro')} maxWidth={1200}>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '260px minmax(0, 1fr)' }, alignItems: 'start' }}>
        <FolderPanel folders={folders.data ?? []} view={view} onChoose={choose} onNotice={setNotice} />
        <Box sx={{ minWidth: 0 }}>
          {canWrite ? <UploadBar folder={currentFolder} onNotice={setNotice} /> : readOnly && <ReadOnlyNotice sx={{ mb: 0 }} />}
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', my: 2 }}>
            <TextField
              type="search"
              size="small"
              label={t('documents:search')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              sx={{ flex: 1, minWidth: 220 }}
              slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" aria-hidden /></InputAdornment> } }}
            />
            <FormControlLabel
              control={
                <Switch
                  checked={highlight}
                  onChange={(e) => {
                    setHighlight(e.target.checked);
                    localStorage.setItem(HIGHLIGHT_KEY, String(e.target.checked));
                  }}
                />
              }
              label={t('documents:highlight')}
            />
            <ShareLinkButton query={{ kind: 'documents' }} />
          </Box>
          {notice && (
            <Alert severity={notice.severity} role={notice.severity === 'error' ? 'alert' : 'status'} onClose={() => setNotice(null)} sx={{ mb: 2 }}>
              {notice.text}
            </Alert>
          )}
          {documents.isError && <Alert severity="error">{t('documents:loadFailed')}</Alert>}
          {documents.isPending && (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
              <CircularProgress aria-label={t('documents:pageTitle')} />
            </Box>
          )}
          {documents.data && documents.data.length === 0 && (
            <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }}>
              <Typography color="text.secondary">{params.get('q') ? t('documents:emptySearch') : t('documents:empty')}</Typography>
            </Paper>
          )}
          {documents.data && documents.data.length > 0 && (
            <Box component="ul" aria-label={t('documents:pageTitle')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
              {documents.data.map((d) => (
                <DocumentRow key={d.id} document={d} folders={folders.data ?? []} highlight={highlight && d.record !== null} onNotice={setNotice} />
              ))}
            </Box>
          )}
        </Box>
      </Box>
    </HubPage>
  );
}

function FolderPanel({ folders, view, onChoose, onNotice }: { folders: FolderDto[]; view: string; onChoose: (v: string) => void; onNotice: (n: Notice) => void }) {
  const { t } = useTranslation('documents');
  const create = useCreateFolder();
  const rename = useRenameFolder();
  const remove = useDeleteFolder();
  const [naming, setNaming] = useState<{ folder: FolderDto | null } | null>(null);
  const [deleting, setDeleting] = useState<FolderDto | null>(null);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; folder: FolderDto } | null>(null);
  const { canWrite } = useRecordAccess();

  const entry = (value: string, label: string, icon: React.ReactNode, count?: number, actions?: React.ReactNode) => (
    <Box component="li" key={value} sx={{ display: 'flex', alignItems: 'center' }}>
      <ListItemButton selected={view === value} aria-current={view === value ? 'true' : undefined} onClick={() => onChoose(value)} sx={{ borderRadius: 2, minWidth: 0 }}>
        <ListItemIcon sx={{ minWidth: 36 }}>{icon}</ListItemIcon>
        <ListItemText primary={label} secondary={count === undefined ? undefined : t('documentCount', { count })} />
      </ListItemButton>
      {actions}
    </Box>
  );

  return (
    <Paper variant="outlined" component="nav" aria-labelledby="folders-heading" sx={{ borderRadius: 3, p: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 1, mb: 0.5 }}>
        <Typography id="folders-heading" variant="h2" sx={{ flex: 1, fontSize: '1.1rem' }}>
          {t('folders')}
        </Typography>
        {canWrite && (
          <Button size="small" startIcon={<CreateNewFolder />} onClick={() => setNaming({ folder: null })}>
            {t('newFolder')}
          </Button>
        )}
      </Box>
      <List dense disablePadding>
        {entry('all', t('all'), <FolderOpen />)}
        {entry('none', t('unfiled'), <FolderOpen />)}
        {entry('attached', t('attached'), <AttachFile />)}
        {folders.map((f) =>
          entry(
            String(f.id),
            f.name,
            <Folder color="primary" />,
            f.documents,
            canWrite && <IconButton aria-label={t('folderActions', { name: f.name })} onClick={(e) => setMenu({ anchor: e.currentTarget, folder: f })} size="small">
              <MoreVert fontSize="small" />
            </IconButton>,
          ),
        )}
      </List>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        <MenuItem
          onClick={() => {
            setNaming({ folder: menu!.folder });
            setMenu(null);
          }}
        >
          {t('renameFolder')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            const folder = menu!.folder;
            setMenu(null);
            if (folder.documents > 0) onNotice({ severity: 'error', text: t('folderNotEmpty', { name: folder.name }) });
            else setDeleting(folder);
          }}
        >
          {t('deleteFolder')}
        </MenuItem>
      </Menu>
      <NameDialog
        open={naming !== null}
        title={naming?.folder ? t('renameFolder') : t('newFolder')}
        label={t('folderName')}
        initial={naming?.folder?.name ?? ''}
        confirm={naming?.folder ? t('rename') : t('createFolder')}
        onCancel={() => setNaming(null)}
        onSave={async (name) => {
          if (naming?.folder) await rename.mutateAsync({ id: naming.folder.id, name });
          else {
            const created = await create.mutateAsync(name);
            onChoose(String(created.id));
          }
          setNaming(null);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('deleteFolderTitle')}
        confirmLabel={t('delete')}
        destructive
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const folder = deleting!;
          setDeleting(null);
          remove.mutateAsync(folder.id).then(
            () => {
              if (view === String(folder.id)) onChoose('all');
            },
            (error: unknown) => onNotice({ severity: 'error', text: applyServerErrors(error, { fallback: t('failed') }) ?? t('failed') }),
          );
        }}
      >
        <DialogContentText>{t('deleteFolderText', { name: deleting?.name ?? '' })}</DialogContentText>
      </ConfirmDialog>
    </Paper>
  );
}

/** A name asked for in a dialog (a folder's, a document's); the server's refusal shows under the field. */
function NameDialog({ open, title, label, initial, confirm, onCancel, onSave }: { open: boolean; title: string; label: string; initial: string; confirm: string; onCancel: () => void; onSave: (name: string) => Promise<void> }) {
  const { t } = useTranslation('documents');
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [shownFor, setShownFor] = useState<string | null>(null);
  if (open && shownFor !== initial) {
    setShownFor(initial);
    setName(initial);
    setError(null);
  }
  if (!open && shownFor !== null) setShownFor(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onSave(name);
    } catch (failure) {
      const messages: string[] = [];
      const general = applyServerErrors<{ name: string }>(failure, { setError: (_f, e) => messages.push(e.message ?? ''), fields: { name: 'name', file_name: 'name' }, fallback: t('failed') });
      setError(messages.join(' ') || general || t('failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby="name-dialog-title" fullWidth maxWidth="xs">
      <Box component="form" onSubmit={(e) => void submit(e)} noValidate>
        <DialogTitle id="name-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <TextField autoFocus fullWidth label={label} value={name} onChange={(e) => setName(e.target.value)} error={error !== null} helperText={error} sx={{ mt: 1 }} slotProps={{ htmlInput: { maxLength: 200 } }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {confirm}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function UploadBar({ folder, onNotice }: { folder: FolderDto | null; onNotice: (n: Notice) => void }) {
  const { t } = useTranslation('documents');
  const upload = useUploadDocument();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);

  const send = async (files: File[]) => {
    for (const file of files) {
      setProgress({ name: file.name, fraction: 0 });
      try {
        await upload.mutateAsync({ file, folder: folder?.id ?? null, onProgress: (fraction) => setProgress({ name: file.name, fraction }) });
        onNotice({ severity: 'success', text: t('uploaded', { name: file.name }) });
      } catch (error) {
        onNotice({ severity: 'error', text: `${t('uploadFailed', { name: file.name })} ${applyServerErrors(error, { fallback: '' }) ?? ''}`.trim() });
      }
    }
    setProgress(null);
    if (input.current) input.current.value = '';
  };

  return (
    <Paper variant="outlined" sx={{ borderRadius: 3, p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button variant="contained" startIcon={<UploadFile />} onClick={() => input.current?.click()} disabled={progress !== null}>
          {t('upload')}
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 200 }}>
          {folder ? `${t('inFolder', { name: folder.name })}. ` : ''}
          {t('uploadTypes')}
        </Typography>
        <input ref={input} type="file" accept={ACCEPTED} multiple hidden aria-label={t('upload')} onChange={(e) => void send([...(e.target.files ?? [])])} />
      </Box>
      {progress && (
        <Box sx={{ mt: 1.5 }}>
          <Typography variant="body2" id="upload-progress">
            {t('uploading', { name: progress.name, percent: Math.round(progress.fraction * 100) })}
          </Typography>
          <LinearProgress variant="determinate" value={Math.round(progress.fraction * 100)} aria-labelledby="upload-progress" />
        </Box>
      )}
    </Paper>
  );
}

function DocumentRow({ document: d, folders, highlight, onNotice }: { document: DocumentDto; folders: FolderDto[]; highlight: boolean; onNotice: (n: Notice) => void }) {
  const { t, i18n } = useTranslation(['documents', 'records', 'healthRecords']);
  const locale = i18n.resolvedLanguage ?? 'en';
  const { clientId } = useOrganizationContext();
  const update = useUpdateDocument();
  const remove = useDeleteDocument();
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<'preview' | 'move' | 'attach' | 'rename' | 'delete' | null>(null);
  const { canWrite } = useRecordAccess();
  const folder = folders.find((f) => f.id === d.folder);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(d.created_at));

  const act = async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      onNotice({ severity: 'success', text: success });
    } catch (error) {
      onNotice({ severity: 'error', text: applyServerErrors(error, { fallback: t('documents:failed') }) ?? t('documents:failed') });
    }
  };

  return (
    <Paper
      component="li"
      variant="outlined"
      sx={{ borderRadius: 3, p: 1.5, display: 'flex', alignItems: 'center', gap: 1.5, ...(highlight ? { borderColor: 'primary.main', borderWidth: 2, bgcolor: 'action.hover' } : {}) }}
    >
      {d.content_type === 'application/pdf' ? <PictureAsPdf color="error" aria-hidden /> : d.content_type.startsWith('image/') ? <Image color="primary" aria-hidden /> : <Description color="action" aria-hidden />}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Link component="button" type="button" onClick={() => setDialog('preview')} sx={{ fontWeight: 600, textAlign: 'left', overflowWrap: 'anywhere' }}>
          {d.file_name}
        </Link>
        <Typography variant="body2" color="text.secondary">
          {[formatBytes(d.size, locale), date, folder ? t('documents:inFolder', { name: folder.name }) : null].filter(Boolean).join(' · ')}
        </Typography>
        {d.record && (
          <Chip
            size="small"
            icon={<AttachFile />}
            component={RouterLink}
            to={paths.recordDetail(clientId, d.record.record_type, d.record.id)}
            clickable
            label={t('documents:attachedTo', { title: `${d.record.title} (${categoryName(t, d.record.record_type)})` })}
            sx={{ mt: 0.5, maxWidth: '100%', height: 'auto', py: 0.25, '& .MuiChip-label': { whiteSpace: 'normal' } }}
          />
        )}
      </Box>
      <ShareLinkButton iconOnly query={{ document: d.id }} name={d.file_name} />
      <IconButton aria-label={t('documents:actions', { name: d.file_name })} onClick={(e) => setMenu(e.currentTarget)}>
        <MoreVert />
      </IconButton>
      <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
        {(
          [
            ['preview', t('documents:preview')],
            ['download', t('documents:download')],
            ...(canWrite
              ? ([
                  ['move', t('documents:move')],
                  [d.record ? 'detach' : 'attach', d.record ? t('documents:detach') : t('documents:attach')],
                  ['rename', t('documents:renameDocument')],
                  ['delete', t('documents:delete')],
                ] as const)
              : []),
          ] as const
        ).map(([action, label]) => (
          <MenuItem
            key={action}
            onClick={() => {
              setMenu(null);
              if (action === 'download') void downloadFile(d.url, d.file_name);
              else if (action === 'detach') void act(() => update.mutateAsync({ id: d.id, record: null }), t('documents:detachDone', { name: d.file_name }));
              else setDialog(action);
            }}
          >
            {label}
          </MenuItem>
        ))}
      </Menu>

      <FilePreviewDialog file={dialog === 'preview' ? d : null} onClose={() => setDialog(null)} />
      <MoveDialog
        open={dialog === 'move'}
        document={d}
        folders={folders}
        onClose={() => setDialog(null)}
        onMove={(target) => {
          setDialog(null);
          void act(() => update.mutateAsync({ id: d.id, folder: target }), t('documents:moveDone', { name: d.file_name }));
        }}
      />
      <AttachDialog
        open={dialog === 'attach'}
        document={d}
        onClose={() => setDialog(null)}
        onAttach={(recordId, title) => {
          setDialog(null);
          void act(() => update.mutateAsync({ id: d.id, record: recordId }), t('documents:attachDone', { name: d.file_name, title }));
        }}
      />
      <NameDialog
        open={dialog === 'rename'}
        title={t('documents:renameTitle', { name: d.file_name })}
        label={t('documents:fileName')}
        initial={d.file_name}
        confirm={t('documents:rename')}
        onCancel={() => setDialog(null)}
        onSave={async (name) => {
          await update.mutateAsync({ id: d.id, file_name: name });
          setDialog(null);
        }}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        title={t('documents:deleteTitle')}
        confirmLabel={t('documents:delete')}
        destructive
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          setDialog(null);
          void act(() => remove.mutateAsync(d.id), t('documents:deleted', { name: d.file_name }));
        }}
      >
        <DialogContentText>
          {d.record ? t('documents:deleteAttachmentText', { name: d.file_name, title: d.record.title }) : t('documents:deleteText', { name: d.file_name })}
        </DialogContentText>
      </ConfirmDialog>
    </Paper>
  );
}

function MoveDialog({ open, document: d, folders, onClose, onMove }: { open: boolean; document: DocumentDto; folders: FolderDto[]; onClose: () => void; onMove: (folder: number | null) => void }) {
  const { t } = useTranslation('documents');
  const [target, setTarget] = useState<string>(d.folder === null ? 'none' : String(d.folder));
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={`move-${d.id}`} fullWidth maxWidth="xs">
      <DialogTitle id={`move-${d.id}`}>{t('moveTitle', { name: d.file_name })}</DialogTitle>
      <DialogContent>
        <TextField select fullWidth label={t('moveTo')} value={target} onChange={(e) => setTarget(e.target.value)} sx={{ mt: 1 }}>
          <MenuItem value="none">{t('unfiled')}</MenuItem>
          {folders.map((f) => (
            <MenuItem key={f.id} value={String(f.id)}>
              {f.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" onClick={() => onMove(target === 'none' ? null : Number(target))}>
          {t('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function AttachDialog({ open, document: d, onClose, onAttach }: { open: boolean; document: DocumentDto; onClose: () => void; onAttach: (recordId: number, title: string) => void }) {
  const { t, i18n } = useTranslation(['documents', 'records', 'healthRecords']);
  const locale = i18n.resolvedLanguage ?? 'en';
  const [category, setCategory] = useState<string>('condition');
  const [record, setRecord] = useState<string>('');
  const records = useRecordsToAttach(open ? category : null);
  const options = (records.data?.results ?? []).map((r) => ({ id: r.id, title: recordTitle(t, locale, r) }));
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={`attach-${d.id}`} fullWidth maxWidth="sm">
      <DialogTitle id={`attach-${d.id}`}>{t('documents:attachTitle', { name: d.file_name })}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        <TextField
          select
          label={t('documents:category')}
          value={category}
          onChange={(e) => {
            setCategory(e.target.value);
            setRecord('');
          }}
        >
          {CATEGORIES.map((c) => (
            <MenuItem key={c.key} value={c.key}>
              {categoryName(t, c.key, true)}
            </MenuItem>
          ))}
        </TextField>
        {records.isPending ? (
          <CircularProgress size={24} aria-label={t('documents:record')} />
        ) : options.length === 0 ? (
          <Typography color="text.secondary">{t('documents:noRecords')}</Typography>
        ) : (
          <TextField select label={t('documents:record')} value={record} onChange={(e) => setRecord(e.target.value)}>
            {options.map((o) => (
              <MenuItem key={o.id} value={String(o.id)}>
                {o.title}
              </MenuItem>
            ))}
          </TextField>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('documents:cancel')}</Button>
        <Button variant="contained" disabled={!record} onClick={() => onAttach(Number(record), options.find((o) => String(o.id) === record)?.title ?? '')}>
          {t('documents:attach')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
