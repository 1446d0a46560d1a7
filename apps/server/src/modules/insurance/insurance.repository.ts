import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/client';
import type { InsuranceCardsTable } from '../../db/schema';
import type { PatientScope } from '../patients/patient-scope';

export type InsuranceCardRow = Selectable<InsuranceCardsTable>;
export type NewInsuranceCard = Omit<Insertable<InsuranceCardsTable>, 'id' | 'org_id' | 'patient_id' | 'created_by' | 'created_at' | 'updated_at'>;
export type InsuranceCardChanges = Omit<Updateable<InsuranceCardsTable>, 'id' | 'org_id' | 'patient_id' | 'created_by' | 'created_at'>;

/** One patient's insurance cards: every statement is held to the organisation and the patient of its scope. */
export class InsuranceRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: PatientScope,
  ) {}

  private cards() {
    return this.db.selectFrom('insurance_cards').where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId);
  }

  /** Oldest first: the order the patient added them. */
  list(): Promise<InsuranceCardRow[]> {
    return this.cards().selectAll().orderBy('created_at').orderBy('id').execute();
  }

  get(id: number): Promise<InsuranceCardRow | undefined> {
    return this.cards().selectAll().where('id', '=', id).executeTakeFirst();
  }

  insert(card: NewInsuranceCard, userId: number): Promise<InsuranceCardRow> {
    return this.db
      .insertInto('insurance_cards')
      .values({ ...card, org_id: this.scope.orgId, patient_id: this.scope.patientId, created_by: userId })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: number, changes: InsuranceCardChanges): Promise<InsuranceCardRow | undefined> {
    return this.db
      .updateTable('insurance_cards')
      .set({ ...changes, updated_at: new Date() })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  delete(id: number): Promise<InsuranceCardRow | undefined> {
    return this.db
      .deleteFrom('insurance_cards')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }
}
