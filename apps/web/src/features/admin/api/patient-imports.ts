import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PatientImport } from '@healthbook/shared/contracts/people';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/admin/patient-imports/: the file as text/csv; 201 with the preview (nothing sent yet). */
export const uploadPatientFile = ({ file, org }: { file: File; org?: number | undefined }) => {
  const query = new URLSearchParams({ file_name: file.name });
  if (org !== undefined) query.set('org_id', String(org));
  return api.post<PatientImport>(`/api/v1/admin/patient-imports/?${query.toString()}`, new Blob([file], { type: 'text/csv' }));
};

export const useUploadPatientFile = () => useMutation({ mutationFn: uploadPatientFile });

/** GET /api/v1/admin/patient-imports/{id}/: progress and rows (problems only by default). */
export const getPatientImport = (id: number, params: { problems: boolean; page: number }) =>
  api.get<PatientImport>(`/api/v1/admin/patient-imports/${id}/?problems=${params.problems ? '1' : '0'}&page=${params.page}&page_size=50`);

export const patientImportQueryOptions = (id: number, params: { problems: boolean; page: number }) =>
  queryOptions({
    queryKey: queryKeys.people.patientImport(id, params),
    queryFn: () => getPatientImport(id, params),
    // While the invitations go out, the progress is asked for every second.
    refetchInterval: (query) => (query.state.data?.status === 'sending' ? 1000 : false),
  });

export const usePatientImport = (id: number | null, params: { problems: boolean; page: number }) =>
  useQuery({ ...patientImportQueryOptions(id ?? 0, params), enabled: id !== null });

/** POST /api/v1/admin/patient-imports/{id}/send/: 202, the job sends them. */
export const useSendPatientImport = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<PatientImport>(`/api/v1/admin/patient-imports/${id}/send/`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.people.all }),
  });
};
