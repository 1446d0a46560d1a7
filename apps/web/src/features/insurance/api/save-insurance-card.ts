import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InsuranceCard, InsuranceSide } from '@healthbook/shared/contracts/insurance';
import { queryKeys } from '../../../lib/query-keys';
import type { InsuranceCardFields } from './card-fields';
import { createInsuranceCard } from './create-insurance-card';
import { deleteInsurancePhoto } from './delete-insurance-photo';
import { updateInsuranceCard } from './update-insurance-card';
import { uploadInsurancePhoto } from './upload-insurance-photo';

/** What to do with one side's photo when the form is saved. */
export type PhotoChange = { kind: 'keep' } | { kind: 'replace'; file: File } | { kind: 'remove' };

export interface SaveInsuranceCardInput {
  id: number | null;
  fields: InsuranceCardFields;
  photos: Record<InsuranceSide, PhotoChange>;
}

/** A photo refused after its card was saved: the card (now existing) and the side, with the server's answer. */
export class PhotoSaveError extends Error {
  constructor(
    readonly card: InsuranceCard,
    readonly side: InsuranceSide,
    override readonly cause: unknown,
  ) {
    super('photo not saved');
    this.name = 'PhotoSaveError';
  }
}

/** The form's save: the card first (create or update), then each side's photo. */
export async function saveInsuranceCard({ id, fields, photos }: SaveInsuranceCardInput): Promise<InsuranceCard> {
  let card = id === null ? await createInsuranceCard(fields) : await updateInsuranceCard({ id, ...fields });
  for (const side of ['front', 'back'] as const) {
    const change = photos[side];
    try {
      if (change.kind === 'replace') card = await uploadInsurancePhoto({ id: card.id, side, file: change.file });
      else if (change.kind === 'remove' && card[side]) card = await deleteInsurancePhoto({ id: card.id, side });
    } catch (err) {
      throw new PhotoSaveError(card, side, err);
    }
  }
  return card;
}

export function useSaveInsuranceCard() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveInsuranceCard, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.insurance.all }) });
}
