import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { TelehealthQuery } from '../../lib/paths';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const id = (value: string | null) => (value && /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : undefined);

/** The telehealth pages' query parameters (lib/paths.ts TelehealthQuery), read from the URL; anything malformed is left out. */
export function readTelehealthQuery(params: URLSearchParams): TelehealthQuery {
  const date = params.get('selectedDate');
  return {
    selectedProvider: params.get('selectedProvider')?.trim() || undefined,
    selectedDate: date && DAY.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ? date : undefined,
    selectedProviderDetailsId: id(params.get('selectedProviderDetailsId')),
    loadDetails: params.get('loadDetails') === 'true' || undefined,
    slot: id(params.get('slot')),
  };
}

export function useTelehealthQuery(): TelehealthQuery {
  const [params] = useSearchParams();
  return useMemo(() => readTelehealthQuery(params), [params]);
}
