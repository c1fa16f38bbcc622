import { queryOptions } from "@tanstack/react-query";
import { api, ApiError, unwrap } from "../../../api/client";
import { businessKeys } from "../../../api/keys";
import type { BusinessAccount } from "../types";

/** GET business/me (credentials): the signed-in business account, or null when signed out (401). */
export function businessMeOptions() {
  return queryOptions({
    queryKey: businessKeys.me,
    queryFn: async ({ signal }): Promise<BusinessAccount | null> => {
      try {
        return unwrap(await api.GET("/business/me", { credentials: "include", signal })).account;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
}
