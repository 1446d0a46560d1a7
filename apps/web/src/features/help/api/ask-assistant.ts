import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AssistantAnswer } from '@healthbook/shared/contracts/help';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/help/assistant/?q=: the best articles and product pages for a question. */
export const askAssistant = (question: string) => api.get<AssistantAnswer>(`/api/v1/help/assistant/?q=${encodeURIComponent(question)}`);

export const assistantQueryOptions = (question: string, language: string) =>
  queryOptions({ queryKey: queryKeys.help.assistant(question, language), queryFn: () => askAssistant(question), staleTime: 60_000, enabled: question.length > 0 });

export const useAssistant = (question: string, language: string) => useQuery(assistantQueryOptions(question, language));
