import { queryOptions, useQuery } from '@tanstack/react-query';
import type { JournalMoods } from '@healthbook/shared/contracts/journal';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/journal/moods/: the mood of each entry over time, oldest first. */
export const listJournalMoods = () => api.get<JournalMoods>('/api/v1/journal/moods/');

export const journalMoodsQueryOptions = () => queryOptions({ queryKey: queryKeys.journal.moods(), queryFn: listJournalMoods });

export const useJournalMoods = () => useQuery(journalMoodsQueryOptions());
