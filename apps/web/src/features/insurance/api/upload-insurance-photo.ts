import type { InsuranceCard, InsuranceSide } from '@healthbook/shared/contracts/insurance';
import { api } from '../../../lib/api-client';

/** POST /api/v1/insurance/{id}/{side}/ (multipart "file"): uploads or replaces that side's photo. The caller refreshes the list. */
export function uploadInsurancePhoto({ id, side, file }: { id: number; side: InsuranceSide; file: File }) {
  const form = new FormData();
  form.append('file', file);
  return api.upload<InsuranceCard>(`/api/v1/insurance/${id}/${side}/`, form);
}
