import {
  CATEGORIES,
  COMPLAINTS,
  type Complaint,
  RED_FLAGS,
  levelRank,
  symptomCheckNote,
  triage,
  type CategoryDefinition,
  type Language,
  type SavedSymptomCheck,
  type SymptomCheckInput,
  type SymptomCheckResult,
  type SymptomComplaintList,
} from '@healthbook/shared';
import type { ServiceContext, SignedInContext } from '../../context';
import type { SymptomCheckerConfig } from '../../config';
import { servicePlugin } from '../../lib/service-plugin';
import type { RecordsService } from '../records/records.service';
import { BuiltInSymptomChecker, presentOutcome, type SymptomChecker } from './symptom-checker.builtin';
import { HttpSymptomChecker, SymptomCheckerUnavailable } from './symptom-checker.http';

/** The checker the configuration names: the built-in one unless SYMPTOM_CHECKER=http. */
export function createSymptomChecker(config: SymptomCheckerConfig): SymptomChecker {
  return config.kind === 'http' ? new HttpSymptomChecker(config.url, config.timeoutMs) : new BuiltInSymptomChecker();
}

const SYMPTOM = CATEGORIES.find((c) => c.key === 'symptom')! as CategoryDefinition;
/** How bad, as the symptom record's intensity (1 to 10). */
const INTENSITY = { mild: 3, moderate: 6, severe: 9 } as const;

/**
 * The symptom checker: its complaints, a check (nothing stored), and a check saved to a
 * patient's record as a symptom. Whatever checker answers, a red flag answered yes keeps at least
 * its level (the shared rules' safety net over an external answer). Saving re-assesses on the
 * server: a client's result is never trusted; whose record it is, is the records service's and
 * the patients policy's decision (the owner, or full access).
 */
export class SymptomCheckerService {
  constructor(
    readonly checker: SymptomChecker,
    private readonly records: RecordsService,
  ) {}

  complaints(lang: Language): Promise<SymptomComplaintList> {
    return this.checker.complaints(lang);
  }

  async assess(ctx: ServiceContext, input: SymptomCheckInput): Promise<SymptomCheckResult> {
    let result: SymptomCheckResult;
    try {
      result = await this.checker.assess(input, ctx.lang);
    } catch (err) {
      if (err instanceof SymptomCheckerUnavailable) ctx.log.warn({ checker: this.checker.id, reason: err.reason }, 'symptom checker unavailable');
      throw err;
    }
    const local = triage(input);
    if (local.reasons[0]?.kind === 'flag' && levelRank(local.level) > levelRank(result.level)) {
      ctx.log.warn({ checker: this.checker.id, answered: result.level, redFlag: local.level }, 'a red flag answered yes raised the external checker’s level');
      return presentOutcome(result.checker, local, ctx.lang);
    }
    return result;
  }

  async save(ctx: SignedInContext, input: SymptomCheckInput, patientId?: number): Promise<SavedSymptomCheck> {
    const result = await this.assess(ctx, input);
    const lang = ctx.lang;
    const note = symptomCheckNote(
      {
        ...input,
        flagsAnsweredYes: input.red_flags.map((id) => RED_FLAGS[id].question[lang]),
        level: result.level,
        reasons: result.reasons.map((r) => r.text),
        checker: result.checker,
      },
      lang,
    );
    const record = await this.records.create(ctx, SYMPTOM, { name: (COMPLAINTS[input.complaint] as Complaint).name[lang], intensity: INTENSITY[input.severity], note }, patientId);
    return { record_id: record.id, record_type: 'symptom', patient: record.patient, result };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    symptomChecker: SymptomCheckerService;
  }
}

export default servicePlugin<'symptomChecker', { checker: SymptomCheckerConfig }>('symptomChecker', ['records-service'], (app, opts) => new SymptomCheckerService(createSymptomChecker(opts.checker), app.records));
