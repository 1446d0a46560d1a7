import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/v1/fhir/export/: the patient's record as a FHIR R4 Bundle (a file to save). */
export const exportFhir = ({ includePrivate }: { includePrivate: boolean }) => api.blob(`/api/v1/fhir/export/${includePrivate ? '?include_private=true' : ''}`);

export const useExportFhir = () => useMutation({ mutationFn: exportFhir });
