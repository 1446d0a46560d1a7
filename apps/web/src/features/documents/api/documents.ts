import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentDto, FolderDto } from '@healthbook/shared/contracts/documents';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface DocumentListParams {
  /** A folder id, 'none' (in no folder), or nothing (all). */
  folder?: string;
  attached?: 'true';
  search?: string;
}

/** GET /api/v1/documents/ */
export const listDocuments = (params: DocumentListParams) => {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== '') as Array<[string, string]>).toString();
  return api.get<DocumentDto[]>(`/api/v1/documents/${q ? `?${q}` : ''}`);
};
export const documentsQueryOptions = (params: DocumentListParams) => queryOptions({ queryKey: queryKeys.documents.list({ ...params }), queryFn: () => listDocuments(params) });
export const useDocuments = (params: DocumentListParams) => useQuery(documentsQueryOptions(params));

/** GET /api/v1/documents/folders/ */
export const listFolders = () => api.get<FolderDto[]>('/api/v1/documents/folders/');
export const foldersQueryOptions = () => queryOptions({ queryKey: queryKeys.documents.folders(), queryFn: listFolders });
export const useFolders = () => useQuery(foldersQueryOptions());

/** Every change to documents shows in the lists, the folders' counts and the records' attachments. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }), queryClient.invalidateQueries({ queryKey: queryKeys.records.all })]);
}

/** POST /api/v1/documents/ (multipart: file, folder), with progress. */
export function uploadDocument({ file, folder, onProgress }: { file: File; folder: number | null; onProgress?: (fraction: number) => void }) {
  const form = new FormData();
  if (folder !== null) form.append('folder', String(folder));
  form.append('file', file);
  return api.upload<DocumentDto>('/api/v1/documents/', form, onProgress);
}
export function useUploadDocument() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: uploadDocument, onSuccess: refresh });
}

/** PATCH /api/v1/documents/{id}/: move (folder), rename (file_name), attach or detach (record). */
export const updateDocument = ({ id, ...changes }: { id: number; folder?: number | null; file_name?: string; record?: number | null }) =>
  api.patch<DocumentDto>(`/api/v1/documents/${id}/`, changes);
export function useUpdateDocument() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: updateDocument, onSuccess: refresh });
}

/** DELETE /api/v1/documents/{id}/ */
export const deleteDocument = (id: number) => api.delete<null>(`/api/v1/documents/${id}/`);
export function useDeleteDocument() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: deleteDocument, onSuccess: refresh });
}

/** POST /api/v1/documents/folders/, PATCH and DELETE /api/v1/documents/folders/{id}/ */
export const createFolder = (name: string) => api.post<FolderDto>('/api/v1/documents/folders/', { name });
export const renameFolder = ({ id, name }: { id: number; name: string }) => api.patch<FolderDto>(`/api/v1/documents/folders/${id}/`, { name });
export const deleteFolder = (id: number) => api.delete<null>(`/api/v1/documents/folders/${id}/`);
/**
 * A new folder is in the list the moment it is made, so the caller can open it at once: waiting
 * for the lists to be fetched again showed the folder before it was chosen, and a document
 * uploaded in that moment went to no folder.
 */
export function useCreateFolder() {
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: createFolder,
    onSuccess: (created) => {
      queryClient.setQueryData(queryKeys.documents.folders(), (old: FolderDto[] | undefined) => (old && !old.some((f) => f.id === created.id) ? [...old, created] : old));
      void refresh();
    },
  });
}
export function useRenameFolder() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: renameFolder, onSuccess: refresh });
}
export function useDeleteFolder() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: deleteFolder, onSuccess: refresh });
}
