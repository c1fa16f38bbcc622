import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../api/client";
import { customerKeys } from "../../../api/keys";
import { nextTask } from "../../nextTask";
import { maybeSignedIn } from "../hint";
import type { Customer } from "../types";

/**
 * GET store/customers/me (credentials): the signed-in customer, or null when signed out. Any
 * failure means signed out; without the session hint cookie it is not asked at all (hint.ts).
 * Asked once (SessionProvider); sign-in, profile saves, favourites and logout then write the
 * cached answer themselves.
 */
export function meOptions() {
  return queryOptions({
    queryKey: customerKeys.me,
    queryFn: async ({ signal }): Promise<Customer | null> => {
      if (!maybeSignedIn("locator_session")) return null;
      await nextTask(); // not needed for the first paint: out of the first effects' task
      try {
        return unwrap(await api.GET("/store/customers/me", { credentials: "include", signal })).customer;
      } catch {
        return null;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
}
