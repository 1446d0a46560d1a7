import type { CreateInsuranceCardBody } from '@healthbook/shared/contracts/insurance';

/** What the form sends for a card (create and update alike; empty optional fields are null). */
export type InsuranceCardFields = {
  [K in keyof CreateInsuranceCardBody]-?: Exclude<CreateInsuranceCardBody[K], undefined>;
};
