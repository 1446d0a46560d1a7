import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppleHealthImport, AppleHealthMeasurementsBody } from '@healthbook/shared/contracts/exports';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { FhirBundle } from './import-fhir';

const BASE = '/api/v1/fhir/apple-health/';
/** While the server reads the export or adds its measurements, how far it is is asked for every second. */
const POLL_MS = 1000;
const working = (data: AppleHealthImport | undefined) => data?.status === 'reading' || data?.status === 'importing';

export type AppleHealthThin = AppleHealthImport['thin'];

/** POST …/apple-health/?thin=&time_zone= (multipart, the zip in `file`), with the upload's progress: 202, reading. */
export function uploadAppleHealth({ file, thin, onProgress }: { file: File; thin: AppleHealthThin; onProgress?: (fraction: number) => void }) {
  const query = new URLSearchParams({ thin, time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone });
  const form = new FormData();
  form.append('file', file);
  return api.upload<AppleHealthImport>(`${BASE}?${query.toString()}`, form, onProgress);
}
export const useUploadAppleHealth = () => useMutation({ mutationFn: uploadAppleHealth });

/** GET …/apple-health/{id}/, again every second while it reads or imports; once its measurements are in, the records are read again. */
export function useAppleHealthImport(id: number | null, language: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.appleHealth.detail(id ?? 0, language),
    queryFn: () => api.get<AppleHealthImport>(`${BASE}${id}/`),
    enabled: id !== null,
    refetchInterval: (q) => (working(q.state.data) ? POLL_MS : false),
  });
  const done = query.data?.status === 'done';
  useEffect(() => {
    if (done) void queryClient.invalidateQueries({ queryKey: queryKeys.records.all });
  }, [done, queryClient]);
  return query;
}

/** GET …/apple-health/{id}/clinical/: the export's clinical records as a FHIR Bundle, for the FHIR import's preview. */
export const getAppleHealthClinical = (id: number) => api.get<{ bundle: FhirBundle }>(`${BASE}${id}/clinical/`);
export const useAppleHealthClinical = () => useMutation({ mutationFn: getAppleHealthClinical });

/** POST …/apple-health/{id}/measurements/: the chosen measurements added as biometrics (202, importing); once. */
export function useAddAppleHealthMeasurements() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, measures }: { id: number } & AppleHealthMeasurementsBody) => api.post<AppleHealthImport>(`${BASE}${id}/measurements/`, { measures }),
    onSuccess: (answer) => queryClient.setQueriesData({ queryKey: [...queryKeys.appleHealth.all, 'detail', answer.id] }, answer),
  });
}

/** DELETE …/apple-health/{id}/: what was read goes (a reading under way stops); records already added stay. */
export function useDiscardAppleHealth() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`${BASE}${id}/`),
    onSettled: (_data, _error, id) => queryClient.removeQueries({ queryKey: [...queryKeys.appleHealth.all, 'detail', id] }),
  });
}
