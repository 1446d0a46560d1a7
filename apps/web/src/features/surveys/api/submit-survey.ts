import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SurveyResult } from '@healthbook/shared/contracts/surveys';
import type { SurveyAnswers, SurveyKey } from '@healthbook/shared/surveys';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface SubmitSurveyInput {
  survey: SurveyKey;
  /** One per attempt (crypto.randomUUID): the server refuses a second submission of it. */
  attemptId: string;
  answers: SurveyAnswers;
}

/** POST /api/v1/surveys/{key}/responses/: the server scores the answers; 201 with the result. */
export const submitSurvey = ({ survey, attemptId, answers }: SubmitSurveyInput) =>
  api.post<SurveyResult>(`/api/v1/surveys/${survey}/responses/`, { attempt_id: attemptId, answers });

/** Submits, then the list (latest results) and the history are read again. */
export function useSubmitSurvey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitSurvey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.surveys.all }),
  });
}
