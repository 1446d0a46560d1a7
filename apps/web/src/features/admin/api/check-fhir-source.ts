import { useMutation } from '@tanstack/react-query';
import type { SourceCheckResult } from '@healthbook/shared/contracts/sources';
import { api } from '../../../lib/api-client';

/** POST /api/v1/admin/sources/check/: an address checked (reachable, SMART configuration, endpoints, PKCE, scopes); nothing kept. */
export const checkFhirSource = ({ fhirBaseUrl, scopes }: { fhirBaseUrl: string; scopes?: string }) =>
  api.post<SourceCheckResult>('/api/v1/admin/sources/check/', { fhir_base_url: fhirBaseUrl, ...(scopes?.trim() ? { scopes: scopes.trim() } : {}) });

export const useCheckFhirSource = () => useMutation({ mutationFn: checkFhirSource });
