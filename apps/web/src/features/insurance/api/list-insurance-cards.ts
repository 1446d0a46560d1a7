import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InsuranceCard } from '@healthbook/shared/contracts/insurance';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/insurance/ */
export const listInsuranceCards = () => api.get<InsuranceCard[]>('/api/v1/insurance/');
export const insuranceCardsQueryOptions = () => queryOptions({ queryKey: queryKeys.insurance.list(), queryFn: listInsuranceCards });
export const useInsuranceCards = () => useQuery(insuranceCardsQueryOptions());
