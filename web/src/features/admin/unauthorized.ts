import { useEffect } from "react";
import { ApiError } from "../../api/client";

/** True when error is the server's 401: the moderator's session has ended. */
export const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;

/** Calls onUnauthorized when any of a panel's query errors is a 401, so the page asks to sign in again. */
export function useSignedOutOn(errors: unknown[], onUnauthorized: () => void) {
  const unauthorized = errors.some(isUnauthorized);
  useEffect(() => {
    if (unauthorized) onUnauthorized();
  }, [unauthorized, onUnauthorized]);
}
