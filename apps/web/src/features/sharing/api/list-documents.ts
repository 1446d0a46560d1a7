import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import type { DocumentDto } from '@healthbook/shared/contracts/documents';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/documents/: every document of the Document Center (the documents to choose from). */
export const listDocuments = () => api.get<DocumentDto[]>('/api/v1/documents/');

export const documentsQueryOptions = () => queryOptions({ queryKey: queryKeys.documents.list({}), queryFn: listDocuments });

export const useDocuments = (enabled = true) => useQuery({ ...documentsQueryOptions(), enabled });

/** GET /api/v1/hr/{category}/{id}/ */
const getRecord = (category: string, id: number) => api.get<HealthRecord>(`/api/v1/hr/${category}/${id}/`);

/**
 * Which of the records documents are attached to are private ("for my eyes only"): a document
 * of a private record cannot be shared. Answers the ids known to be private, and whether every
 * record has answered yet.
 */
export function usePrivateRecordIds(records: ReadonlyArray<{ id: number; record_type: string }>): { privateIds: ReadonlySet<number>; settled: boolean } {
  return useQueries({
    queries: records.map((r) => ({ queryKey: queryKeys.records.detail(r.record_type, r.id), queryFn: () => getRecord(r.record_type, r.id) })),
    combine: (results) => ({
      privateIds: new Set(results.flatMap((result) => (result.data?.private ? [result.data.id] : []))),
      settled: results.every((result) => !result.isPending),
    }),
  });
}
