import { useEffect, useState } from "react";

/**
 * The current time, updated at the start of every minute while the component is mounted: the
 * store status (lib/status.ts) is computed from it, so it changes on time without a refetch.
 * Reads the clock through Date.now(), which tests fix (vi.setSystemTime, Playwright's page.clock).
 */
export function useMinuteTick(): Date {
  const [now, setNow] = useState(() => new Date(Date.now()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      const ms = Date.now();
      timer = setTimeout(() => {
        setNow(new Date(Date.now()));
        schedule();
      }, 60_000 - (ms % 60_000) + 5);
    };
    schedule();
    return () => clearTimeout(timer);
  }, []);
  return now;
}
