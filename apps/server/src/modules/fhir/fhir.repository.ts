import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';

/** What the FHIR exchange reads beyond the records: the organisation its identifiers are minted in. */
export class FhirRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  /** The organisation's client id and when it was made (together, what tells this organisation from a namesake elsewhere). */
  organization(): Promise<{ name: string; created_at: string } | undefined> {
    return this.db
      .selectFrom('organizations')
      .select(['name', (eb) => eb.cast<string>('created_at', 'text').as('created_at')])
      .where('id', '=', this.scope.orgId)
      .executeTakeFirst();
  }
}
