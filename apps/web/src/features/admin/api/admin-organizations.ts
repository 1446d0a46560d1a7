import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminOrganization, CreateOrganizationBody, OrganizationAsset, UpdateOrganizationBody } from '@healthbook/shared/contracts/organizations';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/admin/organizations/ (super admins): every organisation, its people counted, its status. */
export const getAdminOrganizations = () => api.get<AdminOrganization[]>('/api/v1/admin/organizations/');
export const adminOrganizationsQueryOptions = () => queryOptions({ queryKey: queryKeys.organizations.admin(), queryFn: getAdminOrganizations });
export const useAdminOrganizations = () => useQuery(adminOrganizationsQueryOptions());

/** GET /api/v1/admin/organizations/{id}/ */
export const getAdminOrganization = (id: number) => api.get<AdminOrganization>(`/api/v1/admin/organizations/${id}/`);
export const adminOrganizationQueryOptions = (id: number) => queryOptions({ queryKey: queryKeys.organizations.adminOne(id), queryFn: () => getAdminOrganization(id) });
export const useAdminOrganization = (id: number | null) => useQuery({ ...adminOrganizationQueryOptions(id ?? 0), enabled: id !== null });

/** Every view of the organisations (this list, the branding of the shell, the other admin pages) is read again. */
function useInvalidating<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all }) });
}

/** POST /api/v1/admin/organizations/ */
export const useCreateOrganization = () => useInvalidating((body: CreateOrganizationBody) => api.post<AdminOrganization>('/api/v1/admin/organizations/', body));

/** PATCH /api/v1/admin/organizations/{id}/: only the fields sent change. */
export const useUpdateOrganization = () =>
  useInvalidating(({ id, body }: { id: number; body: UpdateOrganizationBody }) => api.patch<AdminOrganization>(`/api/v1/admin/organizations/${id}/`, body));

/** PUT /api/v1/admin/organizations/{id}/{logo|favicon}/ (multipart field 'file'). */
export const useUploadOrganizationAsset = () =>
  useInvalidating(({ id, asset, file }: { id: number; asset: OrganizationAsset; file: File }) => {
    const form = new FormData();
    form.append('file', file);
    return api.put<AdminOrganization>(`/api/v1/admin/organizations/${id}/${asset}/`, form);
  });

/** DELETE /api/v1/admin/organizations/{id}/{logo|favicon}/ */
export const useRemoveOrganizationAsset = () =>
  useInvalidating(({ id, asset }: { id: number; asset: OrganizationAsset }) => api.delete<AdminOrganization>(`/api/v1/admin/organizations/${id}/${asset}/`));

/** POST /api/v1/admin/organizations/{id}/deactivate/ or /reactivate/ */
export const useSetOrganizationActive = () =>
  useInvalidating(({ id, active }: { id: number; active: boolean }) => api.post<AdminOrganization>(`/api/v1/admin/organizations/${id}/${active ? 'reactivate' : 'deactivate'}/`));
