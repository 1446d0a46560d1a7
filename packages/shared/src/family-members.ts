/** Family members' constants (zod-free: the web form reads them too). The API's contract: contracts/family-members.ts. */

/** How many family members one user may manage. */
export const FAMILY_MEMBERS_MAX = 20;

/** Who a family member is to the user who added them. */
export const FAMILY_RELATIONSHIPS = ['child', 'parent', 'spouse', 'sibling', 'other'] as const;
export type FamilyRelationship = (typeof FAMILY_RELATIONSHIPS)[number];
