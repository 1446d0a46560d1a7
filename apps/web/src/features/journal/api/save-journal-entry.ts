import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JournalEntry, JournalEntryBody } from '@healthbook/shared/contracts/journal';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/journal/ (a new entry) or PUT /api/v1/journal/{id}/ (every field of an entry). */
export const saveJournalEntry = ({ id, body }: { id: number | null; body: JournalEntryBody }) =>
  id === null ? api.post<JournalEntry>('/api/v1/journal/', body) : api.put<JournalEntry>(`/api/v1/journal/${id}/`, body);

export function useSaveJournalEntry() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveJournalEntry, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.journal.all }) });
}
