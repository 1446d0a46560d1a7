import { SymptomCheckResultSchema, type Language, type SymptomCheckInput, type SymptomCheckResult, type SymptomComplaintList } from '@healthbook/shared';
import { HttpError } from '../../lib/http-errors';
import { complaintList, type SymptomChecker } from './symptom-checker.builtin';

/** The longest answer read from an external checker. */
const MAX_ANSWER_CHARS = 64 * 1024;

/** Why an external checker's answer was not used (logged; the user gets a 502). */
export class SymptomCheckerUnavailable extends HttpError {
  constructor(readonly reason: string) {
    super(502, 'errors:symptomCheckerUnavailable');
  }
}

/**
 * An external symptom checker over HTTP (SYMPTOM_CHECKER=http): the checked input is POSTed as
 * JSON `{ input, language }` to SYMPTOM_CHECKER_URL, which must answer 2xx with a
 * SymptomCheckResult; the answer is checked with the shared schema and nothing else is trusted.
 * No answer within the timeout, an error status or an answer of another shape: 502. The input's
 * vocabulary (complaints, durations, red flags) is the shared one, so the complaint list is too.
 */
export class HttpSymptomChecker implements SymptomChecker {
  readonly id: string;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {
    this.id = `http:${new URL(url).host}`;
  }

  async complaints(lang: Language): Promise<SymptomComplaintList> {
    return complaintList(this.id, lang);
  }

  async assess(input: SymptomCheckInput, lang: Language): Promise<SymptomCheckResult> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'accept-language': lang },
        body: JSON.stringify({ input, language: lang }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      throw new SymptomCheckerUnavailable((err as Error).name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : `not reachable: ${(err as Error).message}`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new SymptomCheckerUnavailable(`answered ${response.status}`);
    }
    let body: unknown;
    try {
      const text = await response.text();
      if (text.length > MAX_ANSWER_CHARS) throw new SymptomCheckerUnavailable(`answered more than ${MAX_ANSWER_CHARS} characters`);
      body = JSON.parse(text);
    } catch (err) {
      if (err instanceof SymptomCheckerUnavailable) throw err;
      throw new SymptomCheckerUnavailable('answered something that is not JSON');
    }
    const parsed = SymptomCheckResultSchema.safeParse(body);
    if (!parsed.success) throw new SymptomCheckerUnavailable(`answered another shape: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ').slice(0, 300)}`);
    return { ...parsed.data, checker: this.id };
  }
}
