import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FhirConvertBody, FhirConvertResult } from '@healthbook/shared/contracts/exports';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/fhir/convert/: a C-CDA document as a FHIR Bundle for the import's preview; nothing is written. */
export const convertDocument = (body: Omit<FhirConvertBody, 'keep_document'>) => api.post<FhirConvertResult>('/api/v1/fhir/convert/', body);

export const useConvertDocument = () => useMutation({ mutationFn: convertDocument });

/** The same with keep_document, once the import is accepted: the original is kept in the Document Center. */
export const keepDocument = (body: Omit<FhirConvertBody, 'keep_document'>) => api.post<FhirConvertResult>('/api/v1/fhir/convert/', { ...body, keep_document: true });

export function useKeepDocument() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: keepDocument, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }) });
}
