import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileQuestion } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/users/profile_answers/ with one answer ("" clears it); the answer is the questions with their answers. */
export const saveProfileAnswer = ({ question, answer }: { question: number; answer: string }) =>
  api.post<ProfileQuestion[]>('/api/v1/users/profile_answers/', { answers: { [String(question)]: answer } });

/** Saves one answer as the user goes; the questions are read again in every language. */
export function useSaveProfileAnswer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfileAnswer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.profileQuestions.all }),
  });
}
