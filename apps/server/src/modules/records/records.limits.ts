import { RECORDS_MAX_PER_PATIENT } from '@healthbook/shared';
import { HttpError } from '../../lib/http-errors';
import type { RecordsRepository } from './records.repository';

/**
 * RECORDS_MAX_PER_PATIENT (issue 24, §3): a patient's record holds at most so many entries, so
 * that what grows with it (a PDF, a FHIR export, a share) stays bounded. Adding `adding` more
 * than there is room for is a 400 that names the cap (an import also says how many still fit).
 * Two adds at the very same moment may pass it by one each: a bound, not a count to the unit.
 */
export async function assertRoomForRecords(repo: RecordsRepository, adding: number, kind: 'create' | 'import' = 'create'): Promise<void> {
  const held = await repo.countAll();
  if (held + adding <= RECORDS_MAX_PER_PATIENT) return;
  if (kind === 'import') throw new HttpError(400, 'errors:fhirRecordsLimit', { count: adding, max: RECORDS_MAX_PER_PATIENT, left: Math.max(0, RECORDS_MAX_PER_PATIENT - held) });
  throw new HttpError(400, 'errors:recordsLimit', { max: RECORDS_MAX_PER_PATIENT });
}
