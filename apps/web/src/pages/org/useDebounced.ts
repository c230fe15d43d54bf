import { Limits } from '@coldchain/contract';
import { useEffect, useState } from 'react';

/** The value once it stopped changing for `delay` ms (spec section 9: search debounce 200 ms). */
export function useDebounced<T>(value: T, delay: number = Limits.searchDebounceMs): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
