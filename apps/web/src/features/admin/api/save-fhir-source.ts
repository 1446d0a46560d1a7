import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateFhirSourceBody, FhirSource, UpdateFhirSourceBody } from '@healthbook/shared/contracts/sources';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type SaveFhirSource = { id?: undefined; body: CreateFhirSourceBody } | { id: number; body: UpdateFhirSourceBody };

/** POST /api/v1/admin/sources/ (checked first: 400 on the field that failed) or PATCH /api/v1/admin/sources/{id}/. */
export const saveFhirSource = ({ id, body }: SaveFhirSource) =>
  id === undefined ? api.post<FhirSource>('/api/v1/admin/sources/', body) : api.patch<FhirSource>(`/api/v1/admin/sources/${id}/`, body);

/** The administrators' lists and the patients' providers are read again (a source disabled is offered to no one). */
export function useSaveFhirSource() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveFhirSource, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sources.all }) });
}
