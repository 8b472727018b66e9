/**
 * `useApi(path)`: loads a JSON route, reloading when the path changes, when `reload()` is called
 * or when the user enters an API key.
 * @module
 */
import { useCallback, useEffect, useState } from 'react';
import { api, ApiError } from './api';

export interface ApiState<T> {
  data: T | undefined;
  error: ApiError | Error | undefined;
  loading: boolean;
  reload: () => void;
}

/** Loads `path` (skipped while it is null). */
export function useApi<T>(path: string | null): ApiState<T> {
  const [state, setState] = useState<Omit<ApiState<T>, 'reload'>>({
    data: undefined,
    error: undefined,
    loading: path !== null,
  });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    const onKey = () => setTick((n) => n + 1);
    window.addEventListener('colloquy:auth-changed', onKey);
    return () => window.removeEventListener('colloquy:auth-changed', onKey);
  }, []);
  useEffect(() => {
    if (path === null) {
      setState({ data: undefined, error: undefined, loading: false });
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    api<T>(path, undefined, controller.signal).then(
      (data) => setState({ data, error: undefined, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ data: undefined, error: error as Error, loading: false });
      },
    );
    return () => controller.abort();
  }, [path, tick]);
  return { ...state, reload };
}
