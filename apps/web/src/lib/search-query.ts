import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A search box kept in the address (`?q=`): the box answers every keystroke, the address (and so the
 * server query read from it) follows a moment after typing stops. `reset` names parameters a new
 * search clears (a page number, say).
 */
export function useSearchQuery(reset: readonly string[] = []): [string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('q') ?? '');
  const resetKey = reset.join(',');
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((params.get('q') ?? '') === search) return;
      const next = new URLSearchParams(params);
      if (search) next.set('q', search);
      else next.delete('q');
      for (const name of resetKey ? resetKey.split(',') : []) next.delete(name);
      setParams(next, { replace: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [search, params, setParams, resetKey]);
  return [search, setSearch];
}
