import type { InsuranceCard, InsuranceSide } from '@healthbook/shared/contracts/insurance';
import { api } from '../../../lib/api-client';

/** DELETE /api/v1/insurance/{id}/{side}/: removes that side's photo. The caller refreshes the list. */
export const deleteInsurancePhoto = ({ id, side }: { id: number; side: InsuranceSide }) => api.delete<InsuranceCard>(`/api/v1/insurance/${id}/${side}/`);
