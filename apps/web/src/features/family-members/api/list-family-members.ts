import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FamilyMember } from '@healthbook/shared/contracts/family-members';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/family-members/ */
export const listFamilyMembers = () => api.get<FamilyMember[]>('/api/v1/family-members/');
export const familyMembersQueryOptions = () => queryOptions({ queryKey: queryKeys.familyMembers.list(), queryFn: listFamilyMembers });
export const useFamilyMembers = () => useQuery(familyMembersQueryOptions());
