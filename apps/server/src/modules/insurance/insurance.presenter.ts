import type { InsuranceCard, InsuranceSide, SharedInsuranceCard } from '@healthbook/shared';
import type { InsuranceCardRow } from './insurance.repository';

/** Where a card's photo is downloaded (with the same rights as reading the card). */
export const insurancePhotoUrl = (id: number, side: InsuranceSide) => `/api/v1/insurance/${id}/${side}/`;

const iso = (value: Date | string) => (typeof value === 'string' ? new Date(value) : value).toISOString();

/** A card as the API answers it: no storage keys, no internal columns. */
export function presentInsuranceCard(row: InsuranceCardRow): InsuranceCard {
  return {
    id: row.id,
    insurer: row.insurer,
    plan: row.plan,
    member_number: row.member_number,
    group_number: row.group_number,
    holder_name: row.holder_name,
    holder_relationship: row.holder_relationship,
    valid_from: row.valid_from,
    valid_to: row.valid_to,
    notes: row.notes,
    front: row.front_key && row.front_content_type ? { content_type: row.front_content_type, url: insurancePhotoUrl(row.id, 'front') } : null,
    back: row.back_key && row.back_content_type ? { content_type: row.back_content_type, url: insurancePhotoUrl(row.id, 'back') } : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** A card as shares and PDF exports show it: its details, never its photos or notes. */
export function presentCardDetails(row: InsuranceCardRow): SharedInsuranceCard {
  const { front: _front, back: _back, notes: _notes, created_at: _created, updated_at: _updated, ...details } = presentInsuranceCard(row);
  return details;
}
