import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FhirImportResult } from '@healthbook/shared/contracts/exports';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A FHIR Bundle as read from a file (checked by the server). */
export type FhirBundle = { resourceType: string } & Record<string, unknown>;

/** POST /api/v1/fhir/import/ without `accept`: what the bundle holds, each entry as it would be imported; nothing is written. */
export const previewFhirImport = (bundle: FhirBundle) => api.post<FhirImportResult>('/api/v1/fhir/import/', { bundle });

export const usePreviewFhirImport = () => useMutation({ mutationFn: previewFhirImport });

/** POST /api/v1/fhir/import/ with `accept`: the chosen entries added to the record. */
export const importFhir = ({ bundle, accept }: { bundle: FhirBundle; accept: string[] }) => api.post<FhirImportResult>('/api/v1/fhir/import/', { bundle, accept });

export function useImportFhir() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: importFhir, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.records.all }) });
}
